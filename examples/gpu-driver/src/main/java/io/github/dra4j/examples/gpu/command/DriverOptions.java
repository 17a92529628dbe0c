package io.github.dra4j.examples.gpu.command;

import io.github.dra4j.core.name.NameRules;
import io.github.dra4j.core.option.SettingsCheck;
import io.github.dra4j.examples.gpu.GpuDriver;
import io.github.dra4j.examples.gpu.devices.DeviceLayout;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import picocli.CommandLine.Option;

/**
 * The GPU driver's own flags, each defaulting to the environment variable the reference GPU
 * drivers use ({@code --num-devices} to {@code NUM_DEVICES}, ...). Values are taken as text and
 * checked together by {@link #settings()}, so every malformed one is named with its variable and
 * value in one message. Picocli fills the fields; read them on one thread.
 */
public final class DriverOptions {

  @Option(names = "--driver-name", defaultValue = "${env:DRIVER_NAME}", paramLabel = "NAME",
      description = "The DRA driver name (env DRIVER_NAME; default " + GpuDriver.DEFAULT_NAME
          + ").")
  String driverName;

  @Option(names = "--gpu-backend", defaultValue = "${env:GPU_BACKEND}", paramLabel = "KIND",
      description = "simulated (default) or nvml (env GPU_BACKEND).")
  String backend;

  @Option(names = "--num-devices", defaultValue = "${env:NUM_DEVICES}", paramLabel = "N",
      description = "How many simulated GPUs (env NUM_DEVICES; default 8).")
  String numDevices;

  @Option(names = "--gpu-partitions", defaultValue = "${env:GPU_PARTITIONS}", paramLabel = "N",
      description = "Offer N partitions of each GPU beside the whole GPU, on a counter set; 0 for"
          + " none (env GPU_PARTITIONS; default 0).")
  String gpuPartitions;

  @Option(names = "--gpu-allow-multiple-allocations",
      defaultValue = "${env:GPU_ALLOW_MULTIPLE_ALLOCATIONS}", paramLabel = "BOOL",
      description = "Let several claims share a device, each taking part of its memory and "
          + "compute (env GPU_ALLOW_MULTIPLE_ALLOCATIONS; default false).")
  String allowMultipleAllocations;

  @Option(names = "--gpu-device-status", defaultValue = "${env:GPU_DEVICE_STATUS}",
      paramLabel = "BOOL", description = "Write the GPUs' UUID, product and driver version into "
          + "each claim's status.devices (env GPU_DEVICE_STATUS; default false).")
  String deviceStatus;

  @Option(names = "--gpu-health-file", defaultValue = "${env:GPU_HEALTH_FILE}",
      paramLabel = "FILE", description = "The JSON file that drives simulated GPUs' health "
          + "(env GPU_HEALTH_FILE; default gpu-health.json in the plugin's data directory).")
  String healthFile;

  @Option(names = "--nvidia-driver-root", defaultValue = "${env:NVIDIA_DRIVER_ROOT}",
      paramLabel = "DIR", description = "Where the NVIDIA driver is installed on the host "
          + "(env NVIDIA_DRIVER_ROOT; default /).")
  String hostDriverRoot;

  @Option(names = "--container-driver-root", defaultValue = "${env:DRIVER_ROOT_CTR_PATH}",
      paramLabel = "DIR", description = "Where the host's driver root is mounted in this "
          + "container (env DRIVER_ROOT_CTR_PATH; default /driver-root).")
  String containerDriverRoot;

  @Option(names = "--additional-xids-to-ignore",
      defaultValue = "${env:ADDITIONAL_XIDS_TO_IGNORE}", paramLabel = "LIST",
      description = "XIDs that do not make a GPU unhealthy, comma separated, beside the usual "
          + "ones (env ADDITIONAL_XIDS_TO_IGNORE).")
  String additionalXidsToIgnore;

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
    check.throwIfProblems();
    return new DriverSettings(name, kind, devices, new DeviceLayout(partitions, multiple),
        status, health, hostRoot, containerRoot, xids);
  }
}
