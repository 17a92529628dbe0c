package io.github.dra4j.examples.gpu.command;

import io.github.dra4j.core.name.NameRules;
import io.github.dra4j.core.option.SettingsCheck;
import io.github.dra4j.examples.gpu.GpuDriver;
import io.github.dra4j.examples.gpu.devices.DeviceLayout;
import io.github.dra4j.examples.gpu.mps.MpsTimeouts;
import io.github.dra4j.examples.gpu.nvml.driverfiles.CdiHook;
import io.github.dra4j.examples.gpu.nvml.driverfiles.DriverCapability;
import io.github.dra4j.examples.gpu.nvml.driverfiles.DriverFilesOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import picocli.CommandLine.Option;

/**
 * The GPU driver's own flags, each defaulting to the environment variable the reference GPU
 * drivers use ({@code --num-devices} to {@code NUM_DEVICES}, ...). Values are taken as text and
 * checked together by {@link #settings()}, so every malformed one is named with its variable and
 * value in one message. Picocli fills the fields; read them on one thread.
 */
public final class DriverOptions {

  @Option(names = "--driver-name", defaultValue = "${env:DRIVER_NAME}", paramLabel = "NAME", description = "The DRA driver name (env DRIVER_NAME; default "
      + GpuDriver.DEFAULT_NAME
      + ").")
  String driverName;

  @Option(names = "--gpu-backend", defaultValue = "${env:GPU_BACKEND}", paramLabel = "KIND", description = "simulated (default) or nvml (env GPU_BACKEND).")
  String backend;

  @Option(names = "--num-devices", defaultValue = "${env:NUM_DEVICES}", paramLabel = "N", description = "How many simulated GPUs (env NUM_DEVICES; default 8).")
  String numDevices;

  @Option(names = "--gpu-partitions", defaultValue = "${env:GPU_PARTITIONS}", paramLabel = "N", description = "Offer N partitions of each GPU beside the whole GPU, on a counter set; 0 for"
      + " none (env GPU_PARTITIONS; default 0).")
  String gpuPartitions;

  @Option(names = "--gpu-allow-multiple-allocations", defaultValue = "${env:GPU_ALLOW_MULTIPLE_ALLOCATIONS}", paramLabel = "BOOL", description = "Let several claims share a device, each taking part of its memory and "
      + "compute (env GPU_ALLOW_MULTIPLE_ALLOCATIONS; default false).")
  String allowMultipleAllocations;

  @Option(names = "--gpu-device-status", defaultValue = "${env:GPU_DEVICE_STATUS}", paramLabel = "BOOL", description = "Write the GPUs' UUID, product and driver version into "
      + "each claim's status.devices (env GPU_DEVICE_STATUS; default false).")
  String deviceStatus;

  @Option(names = "--gpu-health-file", defaultValue = "${env:GPU_HEALTH_FILE}", paramLabel = "FILE", description = "The JSON file that drives simulated GPUs' health "
      + "(env GPU_HEALTH_FILE; default gpu-health.json in the plugin's data directory).")
  String healthFile;

  @Option(names = "--nvidia-driver-root", defaultValue = "${env:NVIDIA_DRIVER_ROOT}", paramLabel = "DIR", description = "Where the NVIDIA driver is installed on the host "
      + "(env NVIDIA_DRIVER_ROOT; default /).")
  String hostDriverRoot;

  @Option(names = "--container-driver-root", defaultValue = "${env:DRIVER_ROOT_CTR_PATH}", paramLabel = "DIR", description = "Where the host's driver root is mounted in this "
      + "container (env DRIVER_ROOT_CTR_PATH; default /driver-root).")
  String containerDriverRoot;

  @Option(names = "--additional-xids-to-ignore", defaultValue = "${env:ADDITIONAL_XIDS_TO_IGNORE}", paramLabel = "LIST", description = "XIDs that do not make a GPU unhealthy, comma separated, beside the usual "
      + "ones (env ADDITIONAL_XIDS_TO_IGNORE).")
  String additionalXidsToIgnore;

  @Option(names = "--cdi-driver-capabilities", defaultValue = "${env:CDI_DRIVER_CAPABILITIES}", paramLabel = "LIST", description = "Which of the NVIDIA driver's files containers get: a "
      + "comma-separated list of compute, utility, video, graphics or all (env "
      + "CDI_DRIVER_CAPABILITIES; default compute,utility).")
  String driverCapabilities;

  @Option(names = "--nvidia-cdi-hook-path", defaultValue = "${env:NVIDIA_CDI_HOOK_PATH}", paramLabel = "FILE", description = "The host path of nvidia-cdi-hook, run by the container"
      + " runtime (env NVIDIA_CDI_HOOK_PATH; default: looked up under the driver root).")
  String cdiHookPath;

  @Option(names = "--cdi-disabled-hooks", defaultValue = "${env:CDI_DISABLED_HOOKS}", paramLabel = "LIST", description = "nvidia-cdi-hook subcommands not to add: a "
      + "comma-separated list of create-symlinks, enable-cuda-compat, update-ldcache or all "
      + "(env CDI_DISABLED_HOOKS; default none).")
  String disabledHooks;

  @Option(names = "--mps-start-timeout", defaultValue = "${env:MPS_START_TIMEOUT_SECONDS}", paramLabel = "SECONDS", description = "How long an MPS control daemon may take to start"
      + " and answer, 1 to 600 (env MPS_START_TIMEOUT_SECONDS; default 30).")
  String mpsStartTimeout;

  @Option(names = "--mps-stop-timeout", defaultValue = "${env:MPS_STOP_TIMEOUT_SECONDS}", paramLabel = "SECONDS", description = "How long an MPS control daemon may take to quit"
      + " before it is killed, 1 to 300 (env MPS_STOP_TIMEOUT_SECONDS; default 5).")
  String mpsStopTimeout;

  /** Empty options, for picocli to fill. */
  public DriverOptions() {}

  /**
   * The options as picocli fills them when no flag is given: each from its environment variable.
   *
   * @param environment variable names to values, such as {@link System#getenv()}
   * @return the options
   */
  public static DriverOptions fromEnvironment(Map<String, String> environment) {
    DriverOptions options = new DriverOptions();
    options.driverName = environment.get("DRIVER_NAME");
    options.backend = environment.get("GPU_BACKEND");
    options.numDevices = environment.get("NUM_DEVICES");
    options.gpuPartitions = environment.get("GPU_PARTITIONS");
    options.allowMultipleAllocations = environment.get("GPU_ALLOW_MULTIPLE_ALLOCATIONS");
    options.deviceStatus = environment.get("GPU_DEVICE_STATUS");
    options.healthFile = environment.get("GPU_HEALTH_FILE");
    options.hostDriverRoot = environment.get("NVIDIA_DRIVER_ROOT");
    options.containerDriverRoot = environment.get("DRIVER_ROOT_CTR_PATH");
    options.additionalXidsToIgnore = environment.get("ADDITIONAL_XIDS_TO_IGNORE");
    options.driverCapabilities = environment.get("CDI_DRIVER_CAPABILITIES");
    options.cdiHookPath = environment.get("NVIDIA_CDI_HOOK_PATH");
    options.disabledHooks = environment.get("CDI_DISABLED_HOOKS");
    options.mpsStartTimeout = environment.get("MPS_START_TIMEOUT_SECONDS");
    options.mpsStopTimeout = environment.get("MPS_STOP_TIMEOUT_SECONDS");
    return options;
  }

  /**
   * The checked settings.
   *
   * @return the settings
   * @throws IllegalArgumentException naming every malformed variable with its value
   */
  public DriverSettings settings() {
    SettingsCheck check = new SettingsCheck();
    String name = check.valid("DRIVER_NAME", driverName, NameRules::driverName)
        .orElse(GpuDriver.DEFAULT_NAME);
    DriverSettings.Backend kind = check.oneOf("GPU_BACKEND", backend,
        DriverSettings.Backend.class).orElse(DriverSettings.Backend.SIMULATED);
    int devices = check.integer("NUM_DEVICES", numDevices, 0, 128).orElse(8);
    int partitions = check.integer("GPU_PARTITIONS", gpuPartitions, 0, 64).orElse(0);
    boolean multiple = check.bool("GPU_ALLOW_MULTIPLE_ALLOCATIONS", allowMultipleAllocations)
        .orElse(false);
    boolean status = check.bool("GPU_DEVICE_STATUS", deviceStatus).orElse(false);
    Set<Integer> xids = new LinkedHashSet<>(check.integers("ADDITIONAL_XIDS_TO_IGNORE",
        additionalXidsToIgnore, 0, Integer.MAX_VALUE));
    Optional<Path> health = check.text("GPU_HEALTH_FILE", healthFile).map(Path::of);
    Path hostRoot = check.absolutePath("NVIDIA_DRIVER_ROOT", hostDriverRoot)
        .orElse(Path.of("/"));
    Path containerRoot = check.absolutePath("DRIVER_ROOT_CTR_PATH", containerDriverRoot)
        .orElse(Path.of("/driver-root"));
    Set<DriverCapability> capabilities = check.valid("CDI_DRIVER_CAPABILITIES",
        driverCapabilities, text -> problem(() -> DriverCapability.parse("", text),
            "want a comma-separated list of compute, utility, video, graphics or all"))
        .map(text -> DriverCapability.parse("CDI_DRIVER_CAPABILITIES", text))
        .orElse(DriverCapability.DEFAULT);
    Optional<String> hookPath = check.absolutePath("NVIDIA_CDI_HOOK_PATH", cdiHookPath)
        .map(Path::toString);
    Set<CdiHook> hooks = check.valid("CDI_DISABLED_HOOKS", disabledHooks,
        text -> problem(() -> CdiHook.parse("", text), "want a comma-separated list of"
            + " create-symlinks, enable-cuda-compat, update-ldcache or all"))
        .map(text -> CdiHook.parse("CDI_DISABLED_HOOKS", text)).orElse(Set.of());
    MpsTimeouts mps = new MpsTimeouts(
        seconds(check.integer("MPS_START_TIMEOUT_SECONDS", mpsStartTimeout, 1, 600),
            MpsTimeouts.DEFAULT.start()),
        seconds(check.integer("MPS_STOP_TIMEOUT_SECONDS", mpsStopTimeout, 1, 300),
            MpsTimeouts.DEFAULT.stop()));
    check.throwIfProblems();
    return new DriverSettings(name, kind, devices, new DeviceLayout(partitions, multiple),
        status, health, hostRoot, containerRoot, xids,
        new DriverFilesOptions(capabilities, hookPath, hooks), mps);
  }

  private static Duration seconds(OptionalInt given, Duration otherwise) {
    return given.isPresent() ? Duration.ofSeconds(given.getAsInt()) : otherwise;
  }

  private static Optional<String> problem(Runnable parse, String want) {
    try {
      parse.run();
      return Optional.empty();
    } catch (IllegalArgumentException e) {
      return Optional.of(want);
    }
  }
}
