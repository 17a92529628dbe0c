package io.github.dra4j.examples.gpu.nvml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The options' defaults, environment and checks. */
class NvmlOptionsTest {

  @Test
  void defaults() {
    NvmlOptions options = NvmlOptions.builder().build();

    assertThat(options.containerDriverRoot()).isEqualTo(Path.of("/driver-root"));
    assertThat(options.hostDriverRoot()).isEqualTo(Path.of("/"));
    assertThat(options.additionalXidsToIgnore()).isEmpty();
    assertThat(options.ignoredXids()).containsExactlyInAnyOrder(13, 31, 43, 45, 68, 109);
    assertThat(options.healthPollInterval()).isEqualTo(Duration.ofSeconds(5));
    assertThat(options.recoveryQuietPeriod()).isEqualTo(Duration.ofMinutes(5));
    assertThat(options.libraryPath()).isEmpty();
    assertThat(options.sysfsRoot()).isEqualTo(Path.of("/sys"));
    assertThat(options.procRoot()).isEqualTo(Path.of("/proc"));
    assertThat(options.commandTimeout()).isEqualTo(Duration.ofSeconds(60));
  }

  @Test
  void theEnvironmentSetsTheDriverRootsAndMoreXidsToIgnore() {
    NvmlOptions options = NvmlOptions.fromEnvironment(Map.of(
        "DRIVER_ROOT_CTR_PATH", "/host-driver/", "NVIDIA_DRIVER_ROOT", "/run/nvidia/driver",
        "ADDITIONAL_XIDS_TO_IGNORE", " 48, 79,,94 ")).build();

    assertThat(options.containerDriverRoot()).isEqualTo(Path.of("/host-driver"));
    assertThat(options.hostDriverRoot()).isEqualTo(Path.of("/run/nvidia/driver"));
    assertThat(options.additionalXidsToIgnore()).containsExactlyInAnyOrder(48, 79, 94);
    assertThat(options.ignoredXids()).containsExactlyInAnyOrder(13, 31, 43, 45, 48, 68, 79, 94,
        109);
  }

  @Test
  void emptyVariablesCountAsUnset() {
    NvmlOptions options = NvmlOptions.fromEnvironment(Map.of("DRIVER_ROOT_CTR_PATH", "",
        "NVIDIA_DRIVER_ROOT", " ", "ADDITIONAL_XIDS_TO_IGNORE", "")).build();

    assertThat(options).isEqualTo(NvmlOptions.builder().build());
  }

  @Test
  void aBadXidListNamesTheVariableAndTheValue() {
    assertThatThrownBy(() -> NvmlOptions.fromEnvironment(Map.of("ADDITIONAL_XIDS_TO_IGNORE",
        "48,seventy-nine")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("ADDITIONAL_XIDS_TO_IGNORE=\"48,seventy-nine\" is not a comma-separated list"
            + " of Xid numbers: \"seventy-nine\" is not a non-negative integer");
    assertThatThrownBy(() -> NvmlOptions.parseXids("--additional-xids-to-ignore", "-1"))
        .hasMessageStartingWith("--additional-xids-to-ignore=\"-1\"");
  }

  @Test
  void aRelativeDriverRootNamesTheVariable() {
    assertThatThrownBy(() -> NvmlOptions.fromEnvironment(Map.of("NVIDIA_DRIVER_ROOT",
        "run/nvidia")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("NVIDIA_DRIVER_ROOT=\"run/nvidia\" must be an absolute path");
  }

  @Test
  void invalidFieldsAreNamed() {
    assertThatThrownBy(() -> NvmlOptions.builder().healthPollInterval(Duration.ZERO).build())
        .hasMessage("healthPollInterval must be positive, got PT0S");
    assertThatThrownBy(() -> NvmlOptions.builder().procRoot(Path.of("proc")).build())
        .hasMessage("procRoot must be an absolute path, got proc");
    assertThatThrownBy(() -> NvmlOptions.builder().additionalXidsToIgnore(Set.of(-3)).build())
        .hasMessage("additionalXidsToIgnore must not hold negative Xids, got -3");
  }

  @Test
  void toBuilderKeepsEverything() {
    NvmlOptions options = NvmlOptions.builder().libraryPath(Path.of("/x/libnvidia-ml.so.1"))
        .additionalXidsToIgnore(Set.of(48)).recoveryQuietPeriod(Duration.ofSeconds(1)).build();

    assertThat(options.toBuilder().build()).isEqualTo(options);
    assertThat(options.libraryPath()).isEqualTo(Optional.of(Path.of("/x/libnvidia-ml.so.1")));
  }
}
