package io.github.dra4j.examples.gpu.devices;

import io.github.dra4j.examples.gpu.discovery.Gpu;
import io.github.dra4j.examples.gpu.discovery.MigDevice;
import java.util.Locale;

/**
 * How the driver names its devices, all DNS labels (lower case, digits and dashes, no dots):
 * {@code gpu-<minor>} for a whole GPU, {@code gpu-<minor>-partition-<j>} for a partition, and
 * {@code gpu-<minor>-mig-<profile without dots>-<profile id>-<placement start>} for a MIG device.
 */
public final class DeviceNames {

  private static final String MIG = "-mig-";
  private static final String PARTITION = "-partition-";

  private DeviceNames() {}

  /**
   * The name of a whole GPU.
   *
   * @param gpu the GPU
   * @return {@code gpu-<minor>}
   */
  public static String gpu(Gpu gpu) {
    return "gpu-" + gpu.minor();
  }

  /**
   * The name of a partition of a GPU.
   *
   * @param gpu the GPU
   * @param partition the partition's index
   * @return {@code gpu-<minor>-partition-<partition>}
   */
  public static String partition(Gpu gpu, int partition) {
    return gpu(gpu) + PARTITION + partition;
  }

  /**
   * The name of a MIG device.
   *
   * @param gpu its GPU
   * @param mig the MIG device
   * @return for example {@code gpu-6-mig-1g10gb-19-0}
   */
  public static String mig(Gpu gpu, MigDevice mig) {
    return gpu(gpu) + MIG + mig.profile().toLowerCase(Locale.ROOT).replace(".", "")
        + "-" + mig.giProfileId() + "-" + mig.placementStart();
  }

  /**
   * The name of a GPU's counter set, from which its partitions consume.
   *
   * @param gpu the GPU
   * @return {@code gpu-<minor>-counters}
   */
  public static String counterSet(Gpu gpu) {
    return gpu(gpu) + "-counters";
  }

  /**
   * Whether a device name is one of a MIG device.
   *
   * @param deviceName a device name of this driver
   * @return true for a MIG device
   */
  public static boolean isMig(String deviceName) {
    return deviceName.contains(MIG);
  }

  /**
   * The suffix of an environment variable for a device: the name without {@code gpu-}, upper
   * case, dashes as underscores ({@code gpu-3-partition-1} becomes {@code 3_PARTITION_1}).
   *
   * @param deviceName a device name
   * @return the suffix
   */
  public static String envSuffix(String deviceName) {
    String rest = deviceName.startsWith("gpu-") ? deviceName.substring(4) : deviceName;
    return rest.toUpperCase(Locale.ROOT).replace('-', '_');
  }
}
