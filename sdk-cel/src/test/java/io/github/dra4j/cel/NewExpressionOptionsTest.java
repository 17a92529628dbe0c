package io.github.dra4j.cel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Kubernetes versions and the options of an API server that validates new expressions. */
class NewExpressionOptionsTest {

  @ParameterizedTest
  @CsvSource({"1.34, 1, 34", "v1.36, 1, 36", "v1.36.2, 1, 36", "1.37.0-alpha.1, 1, 37",
      "v1.35.1+k3s1, 1, 35"})
  void versionsParseAsKubernetesPrintsThem(String text, int major, int minor) {
    assertThat(KubernetesVersion.parse(text)).isEqualTo(KubernetesVersion.of(major, minor));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "1", "1.", "v", "1.x", "one.two", " 1.34", "1.34 "})
  void aVersionThatIsNotOneIsRejectedWithTheText(String text) {
    assertThatThrownBy(() -> KubernetesVersion.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Kubernetes version must look like 1.34 or v1.34.2, got \"" + text + "\"");
  }

  @Test
  void versionsCompareNumericallyAndKnowTheirPredecessor() {
    KubernetesVersion v19 = KubernetesVersion.of(1, 9);
    KubernetesVersion v110 = KubernetesVersion.of(1, 10);
    assertThat(v110).isGreaterThan(v19);
    assertThat(v110.isAtLeast(v19)).isTrue();
    assertThat(v19.isAtLeast(v110)).isFalse();
    assertThat(v110.isAtLeast(v110)).isTrue();
    assertThat(KubernetesVersion.of(2, 0)).isGreaterThan(KubernetesVersion.of(1, 99));
    assertThat(v110.previousMinor()).isEqualTo(v19);
    assertThat(v110).hasToString("1.10");
    assertThatThrownBy(() -> KubernetesVersion.of(1, 0).previousMinor())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("1.0 has no previous minor release");
    assertThatThrownBy(() -> KubernetesVersion.of(0, 1))
        .hasMessage("major must be at least 1, got 0");
    assertThatThrownBy(() -> KubernetesVersion.of(1, -1))
        .hasMessage("minor must not be negative, got -1");
  }

  @Test
  void aServerDefaultsToThePreviousMinorAndItsDefaultGates() {
    NewExpressionOptions v135 = NewExpressionOptions.forServer(KubernetesVersion.of(1, 35));
    assertThat(v135).isEqualTo(new NewExpressionOptions(
        KubernetesVersion.of(1, 35), KubernetesVersion.of(1, 34), false, false));
    NewExpressionOptions v136 = NewExpressionOptions.forServer(KubernetesVersion.of(1, 36));
    assertThat(v136.compatibilityVersion()).isEqualTo(KubernetesVersion.of(1, 35));
    assertThat(v136.consumableCapacity()).as("beta and on by default from 1.36").isTrue();
    assertThat(v136.listTypeAttributes()).as("alpha, off by default").isFalse();
    assertThat(v136).hasToString("Kubernetes 1.36 API server (compatibility version 1.35,"
        + " DRAConsumableCapacity on, DRAListTypeAttributes off)");
  }

  @Test
  void theBuilderOverridesTheDefaults() {
    NewExpressionOptions options = NewExpressionOptions.builder(KubernetesVersion.of(1, 36))
        .compatibilityVersion(KubernetesVersion.of(1, 36))
        .consumableCapacity(false)
        .listTypeAttributes(true)
        .build();
    assertThat(options).isEqualTo(new NewExpressionOptions(
        KubernetesVersion.of(1, 36), KubernetesVersion.of(1, 36), false, true));
  }

  @Test
  void versionsOutsideTheModelledRangeAreRejectedByName() {
    assertThatThrownBy(() -> NewExpressionOptions.forServer(KubernetesVersion.of(1, 30)))
        .hasMessage("serverVersion must be 1.31 or later (the first release whose selectors see"
            + " the device variable), got 1.30");
    assertThatThrownBy(() -> NewExpressionOptions.forServer(null)).hasMessage("serverVersion");
    NewExpressionOptions.Builder builder = NewExpressionOptions
        .builder(KubernetesVersion.of(1, 34));
    assertThatThrownBy(() -> builder.compatibilityVersion(KubernetesVersion.of(1, 35)))
        .hasMessage("compatibilityVersion must not be after the server version 1.34, got 1.35");
    assertThatThrownBy(() -> builder.compatibilityVersion(KubernetesVersion.of(1, 28)))
        .hasMessage("compatibilityVersion must be 1.29 or later, got 1.28");
    assertThatThrownBy(() -> builder.compatibilityVersion(null)).hasMessage("compatibilityVersion");
    assertThatThrownBy(() -> new NewExpressionOptions(
        KubernetesVersion.of(1, 34), KubernetesVersion.of(1, 35), false, false))
        .hasMessage("compatibilityVersion must not be after the server version 1.34, got 1.35");
  }

  @Test
  void aGateCannotBeOnInAReleaseThatDoesNotHaveIt() {
    assertThatThrownBy(() -> NewExpressionOptions.builder(KubernetesVersion.of(1, 33))
        .consumableCapacity(true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("consumableCapacity: the feature gate DRAConsumableCapacity exists from"
            + " Kubernetes 1.34, not in 1.33");
    assertThatThrownBy(() -> NewExpressionOptions.builder(KubernetesVersion.of(1, 35))
        .listTypeAttributes(true))
        .hasMessage("listTypeAttributes: the feature gate DRAListTypeAttributes exists from"
            + " Kubernetes 1.36, not in 1.35");
    assertThatThrownBy(() -> new NewExpressionOptions(
        KubernetesVersion.of(1, 35), KubernetesVersion.of(1, 34), false, true))
        .hasMessageStartingWith("listTypeAttributes: ");
    assertThat(NewExpressionOptions.builder(KubernetesVersion.of(1, 33)).consumableCapacity(false)
        .build().consumableCapacity()).isFalse();
  }
}
