package io.github.dra4j.core.option;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class OptionChecksTest {

  @Test
  void badValuesAreNamedWithTheirOption() {
    assertThat(OptionChecks.positive(Duration.ofMillis(1), "syncDelay"))
        .isEqualTo(Duration.ofMillis(1));
    assertThatThrownBy(() -> OptionChecks.positive(Duration.ZERO, "apiServerTimeout"))
        .hasMessage("apiServerTimeout must be positive, got PT0S");
    assertThatThrownBy(() -> OptionChecks.positive(null, "apiServerTimeout"))
        .hasMessage("apiServerTimeout must be positive, got null");
    assertThat(OptionChecks.nonNegative(Duration.ZERO, "syncDelay")).isZero();
    assertThatThrownBy(() -> OptionChecks.nonNegative(Duration.ofSeconds(-1), "syncDelay"))
        .hasMessage("syncDelay must not be negative, got PT-1S");
    assertThatThrownBy(() -> OptionChecks.nonNegative(null, "syncDelay"))
        .isInstanceOf(NullPointerException.class).hasMessage("syncDelay");
    assertThat(OptionChecks.atLeast(1, 1, "maxClaimsPerCall")).isEqualTo(1);
    assertThatThrownBy(() -> OptionChecks.atLeast(0, 1, "maxClaimsPerCall"))
        .hasMessage("maxClaimsPerCall must be at least 1, got 0");
    assertThat(OptionChecks.between(65535, 0, 65535, "port")).isEqualTo(65535);
    assertThatThrownBy(() -> OptionChecks.between(-1, 0, 65535, "port"))
        .hasMessage("port must be between 0 and 65535, got -1");
  }
}
