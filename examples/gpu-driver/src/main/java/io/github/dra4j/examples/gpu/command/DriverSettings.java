package io.github.dra4j.examples.gpu.command;

import io.github.dra4j.examples.gpu.devices.DeviceLayout;
import io.github.dra4j.examples.gpu.mps.MpsTimeouts;
import io.github.dra4j.examples.gpu.nvml.driverfiles.DriverFilesOptions;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The GPU driver's own settings, checked: everything the kubelet plugin command takes beside the
 * SDK's plugin settings.
 *
 * @param driverName the DRA driver name ({@code DRIVER_NAME})
 * @param backend which GPUs ({@code GPU_BACKEND})
 * @param numDevices how many simulated GPUs ({@code NUM_DEVICES})
 * @param layout partitions and multiple allocations ({@code GPU_PARTITIONS}, {@code
 *     GPU_ALLOW_MULTIPLE_ALLOCATIONS})
 * @param deviceStatus whether claims get device status ({@code GPU_DEVICE_STATUS})
 * @param healthFile the simulated GPUs' health file ({@code GPU_HEALTH_FILE}); empty for the
 *     default in the plugin's data directory
 * @param hostDriverRoot where the NVIDIA driver is on the host ({@code NVIDIA_DRIVER_ROOT})
 * @param containerDriverRoot where the host's driver root is mounted in the container ({@code
 *     DRIVER_ROOT_CTR_PATH})
 * @param additionalXidsToIgnore XIDs that do not make a GPU unhealthy, beside the usual ones
 *     ({@code ADDITIONAL_XIDS_TO_IGNORE})
 * @param driverFiles which of the NVIDIA driver's files containers get, and the hook ({@code
 *     CDI_DRIVER_CAPABILITIES}, {@code NVIDIA_CDI_HOOK_PATH}, {@code CDI_DISABLED_HOOKS})
 * @param mpsTimeouts how long MPS control daemons may take to start and to stop ({@code
 *     MPS_START_TIMEOUT_SECONDS}, {@code MPS_STOP_TIMEOUT_SECONDS})
 */
public record DriverSettings(String driverName, Backend backend, int numDevices,
    DeviceLayout layout, boolean deviceStatus, Optional<Path> healthFile, Path hostDriverRoot,
    Path containerDriverRoot, Set<Integer> additionalXidsToIgnore,
    DriverFilesOptions driverFiles, MpsTimeouts mpsTimeouts) {

  /**
   * Checks the fields.
   *
   * @param driverName not null
   * @param backend not null
   * @param numDevices as given
   * @param layout not null
   * @param deviceStatus as given
   * @param healthFile not null
   * @param hostDriverRoot not null
   * @param containerDriverRoot not null
   * @param additionalXidsToIgnore copied
   * @param driverFiles not null
   * @param mpsTimeouts not null
   */
  public DriverSettings {
    Objects.requireNonNull(driverName, "driverName");
    Objects.requireNonNull(backend, "backend");
    Objects.requireNonNull(layout, "layout");
    Objects.requireNonNull(healthFile, "healthFile");
    Objects.requireNonNull(hostDriverRoot, "hostDriverRoot");
    Objects.requireNonNull(containerDriverRoot, "containerDriverRoot");
    additionalXidsToIgnore = Set.copyOf(additionalXidsToIgnore);
    Objects.requireNonNull(driverFiles, "driverFiles");
    Objects.requireNonNull(mpsTimeouts, "mpsTimeouts");
  }

  /** Where the GPUs come from. */
  public enum Backend {
    /** Simulated GPUs, no hardware needed (the default). */
    SIMULATED,
    /** NVIDIA GPUs through NVML. */
    NVML
  }
}
