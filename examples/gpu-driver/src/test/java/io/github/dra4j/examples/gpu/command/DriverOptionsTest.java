package io.github.dra4j.examples.gpu.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.dra4j.examples.gpu.GpuDriver;
import io.github.dra4j.examples.gpu.mps.MpsTimeouts;
import io.github.dra4j.examples.gpu.nvml.driverfiles.CdiHook;
import io.github.dra4j.examples.gpu.nvml.driverfiles.DriverCapability;
import io.github.dra4j.examples.gpu.nvml.driverfiles.DriverFilesOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The GPU driver's own settings as picocli fills them from flags: defaults, every value
 * converted, and every malformed one named with the variable the flag defaults to, all in one
 * message. (The variables themselves are read by {@link KubeletPluginProcessTest}'s processes.)
 */
class DriverOptionsTest {

  private static final Set<String> VARIABLES = Set.of("DRIVER_NAME", "GPU_BACKEND",
      "NUM_DEVICES", "GPU_PARTITIONS", "GPU_ALLOW_MULTIPLE_ALLOCATIONS", "GPU_DEVICE_STATUS",
      "GPU_HEALTH_FILE", "NVIDIA_DRIVER_ROOT", "DRIVER_ROOT_CTR_PATH",
      "ADDITIONAL_XIDS_TO_IGNORE", "CDI_DRIVER_CAPABILITIES", "NVIDIA_CDI_HOOK_PATH",
      "CDI_DISABLED_HOOKS", "MPS_START_TIMEOUT_SECONDS", "MPS_STOP_TIMEOUT_SECONDS");

  private static DriverOptions parse(String... flags) {
    // The flags default to the variables: this test means its own values only.
    assertThat(System.getenv().keySet()).doesNotContainAnyElementsOf(VARIABLES);
    DriverOptions options = new DriverOptions();
    new CommandLine(options).parseArgs(flags);
    return options;
  }

  @Test
  void unsetSettingsTakeTheDefaults() {
    DriverSettings settings = parse().settings();

    assertThat(settings.driverName()).isEqualTo(GpuDriver.DEFAULT_NAME);
    assertThat(settings.backend()).isEqualTo(DriverSettings.Backend.SIMULATED);
    assertThat(settings.numDevices()).isEqualTo(8);
    assertThat(settings.layout().partitions()).isZero();
    assertThat(settings.layout().allowMultipleAllocations()).isFalse();
    assertThat(settings.deviceStatus()).isFalse();
    assertThat(settings.healthFile()).isEmpty();
    assertThat(settings.hostDriverRoot()).isEqualTo(Path.of("/"));
    assertThat(settings.containerDriverRoot()).isEqualTo(Path.of("/driver-root"));
    assertThat(settings.additionalXidsToIgnore()).isEmpty();
    assertThat(settings.driverFiles()).isEqualTo(DriverFilesOptions.DEFAULT);
    assertThat(settings.mpsTimeouts()).isEqualTo(MpsTimeouts.DEFAULT);
  }

  @Test
  void everySettingIsConverted() {
    DriverSettings settings = parse("--driver-name", " gpu.acme.com", "--gpu-backend", "NVML",
        "--num-devices", "4", "--gpu-partitions", "2", "--gpu-allow-multiple-allocations",
        "true", "--gpu-device-status", "TRUE", "--gpu-health-file", "/etc/gpu/health.json",
        "--nvidia-driver-root", "/run/nvidia/driver", "--container-driver-root", "/host-driver",
        "--additional-xids-to-ignore", "13, 31", "--cdi-driver-capabilities", "Compute, video",
        "--nvidia-cdi-hook-path", "/usr/local/nvidia/toolkit/nvidia-cdi-hook",
        "--cdi-disabled-hooks", "enable-cuda-compat", "--mps-start-timeout", "90",
        "--mps-stop-timeout", "10").settings();

    assertThat(settings.driverName()).isEqualTo("gpu.acme.com");
    assertThat(settings.backend()).isEqualTo(DriverSettings.Backend.NVML);
    assertThat(settings.numDevices()).isEqualTo(4);
    assertThat(settings.layout().partitions()).isEqualTo(2);
    assertThat(settings.layout().allowMultipleAllocations()).isTrue();
    assertThat(settings.deviceStatus()).isTrue();
    assertThat(settings.healthFile()).contains(Path.of("/etc/gpu/health.json"));
    assertThat(settings.hostDriverRoot()).isEqualTo(Path.of("/run/nvidia/driver"));
    assertThat(settings.containerDriverRoot()).isEqualTo(Path.of("/host-driver"));
    assertThat(settings.additionalXidsToIgnore()).containsExactlyInAnyOrder(13, 31);
    assertThat(settings.driverFiles()).isEqualTo(new DriverFilesOptions(
        Set.of(DriverCapability.COMPUTE, DriverCapability.VIDEO),
        Optional.of("/usr/local/nvidia/toolkit/nvidia-cdi-hook"),
        Set.of(CdiHook.ENABLE_CUDA_COMPAT)));
    assertThat(settings.mpsTimeouts())
        .isEqualTo(new MpsTimeouts(Duration.ofSeconds(90), Duration.ofSeconds(10)));
    assertThat(parse("--cdi-driver-capabilities", "all", "--cdi-disabled-hooks", "all")
        .settings().driverFiles()).isEqualTo(new DriverFilesOptions(
            Set.of(DriverCapability.values()), Optional.empty(), Set.of(CdiHook.values())));
  }

  @Test
  void optionsFromTheEnvironmentAreWhatPicocliFillsFromTheSameVariables() {
    // Each flag and the variable it defaults to, given the same valid value: the settings agree,
    // and an option added without its line in fromEnvironment fails here.
    Map<String, String> values = Map.ofEntries(Map.entry("DRIVER_NAME", "gpu.acme.com"),
        Map.entry("GPU_BACKEND", "nvml"), Map.entry("NUM_DEVICES", "4"),
        Map.entry("GPU_PARTITIONS", "2"), Map.entry("GPU_ALLOW_MULTIPLE_ALLOCATIONS", "true"),
        Map.entry("GPU_DEVICE_STATUS", "true"),
        Map.entry("GPU_HEALTH_FILE", "/etc/gpu/health.json"),
        Map.entry("NVIDIA_DRIVER_ROOT", "/run/nvidia/driver"),
        Map.entry("DRIVER_ROOT_CTR_PATH", "/host-driver"),
        Map.entry("ADDITIONAL_XIDS_TO_IGNORE", "13,31"),
        Map.entry("CDI_DRIVER_CAPABILITIES", "utility,graphics"),
        Map.entry("NVIDIA_CDI_HOOK_PATH", "/opt/nvidia-cdi-hook"),
        Map.entry("CDI_DISABLED_HOOKS", "update-ldcache"),
        Map.entry("MPS_START_TIMEOUT_SECONDS", "45"), Map.entry("MPS_STOP_TIMEOUT_SECONDS", "7"));
    List<String> flags = new ArrayList<>();
    Map<String, String> environment = new HashMap<>();
    for (OptionSpec option : new CommandLine(new DriverOptions()).getCommandSpec().options()) {
      String variable = option.defaultValueString(false).replaceAll("^\\$\\{env:(.*)}$", "$1");
      assertThat(values).containsKey(variable);
      flags.add(option.longestName() + "=" + values.get(variable));
      environment.put(variable, values.get(variable));
    }

    assertThat(environment.keySet()).isEqualTo(VARIABLES);
    assertThat(DriverOptions.fromEnvironment(environment).settings())
        .isEqualTo(parse(flags.toArray(String[]::new)).settings());
    assertThat(DriverOptions.fromEnvironment(Map.of()).settings()).isEqualTo(parse().settings());
  }

  @Test
  void everyMalformedSettingIsNamedWithItsVariableAndValueInOneMessage() {
    DriverOptions options = parse("--driver-name", "GPU_Driver", "--gpu-backend", "cuda",
        "--num-devices", "eight", "--gpu-partitions", "65", "--gpu-device-status", "yes",
        "--nvidia-driver-root", "run/nvidia", "--additional-xids-to-ignore", "13,x",
        "--cdi-driver-capabilities", "compute,display", "--nvidia-cdi-hook-path", "bin/hook",
        "--cdi-disabled-hooks", "chmod", "--mps-start-timeout", "0", "--mps-stop-timeout",
        "5s");

    assertThatThrownBy(options::settings).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContainingAll("DRIVER_NAME=\"GPU_Driver\": ",
            "GPU_BACKEND=\"cuda\": want simulated or nvml",
            "NUM_DEVICES=\"eight\": want a whole number from 0 to 128",
            "GPU_PARTITIONS=\"65\": want a whole number from 0 to 64",
            "GPU_DEVICE_STATUS=\"yes\": want true or false",
            "NVIDIA_DRIVER_ROOT=\"run/nvidia\": want an absolute path",
            "ADDITIONAL_XIDS_TO_IGNORE=\"x\": want a whole number",
            "CDI_DRIVER_CAPABILITIES=\"compute,display\": want a comma-separated list of compute,"
                + " utility, video, graphics or all",
            "NVIDIA_CDI_HOOK_PATH=\"bin/hook\": want an absolute path",
            "CDI_DISABLED_HOOKS=\"chmod\": want a comma-separated list of create-symlinks,"
                + " enable-cuda-compat, update-ldcache or all",
            "MPS_START_TIMEOUT_SECONDS=\"0\": want a whole number from 1 to 600",
            "MPS_STOP_TIMEOUT_SECONDS=\"5s\": want a whole number from 1 to 300");
  }
}
