package io.github.dra4j.examples.gpu.devices;

import io.github.dra4j.examples.gpu.discovery.Gpu;
import io.github.dra4j.examples.gpu.discovery.MigDevice;
import java.util.Locale;

/**
 * How the driver names its devices, all DNS labels (lower case, digits and dashes, no dots):
 * {@code gpu-<minor>} for a whole GPU, {@code gpu-<minor>-partition-<j>} for a partition, and
 * {@code gpu-<minor>-mig-<profile>-<profile id>-<placement start>} for a MIG device, where the
 * profile's name is written as a label ({@link #profileLabel}). The names depend only on what the
 * hardware reports, so they stay the same across restarts; the profile ID and the placement make
 * MIG names unique even where two profiles' names write the same label.
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
    return gpu(gpu) + MIG + profileLabel(mig.profile()) + "-" + mig.giProfileId() + "-"
        + mig.placementStart();
  }

  /**
   * A MIG profile's name as part of a DNS label: lower case, dots dropped, and every other
   * character a label cannot hold, such as the {@code +} of the media-engine variants, a dash
   * ({@code 1g.10gb+me} becomes {@code 1g10gb-me}, {@code 1g.10gb+me.all} {@code 1g10gb-meall});
   * dashes are never doubled, and none is left at either end.
   *
   * @param profile the profile's name as NVML reports it
   * @return the label part, {@code mig} if nothing of the name is left
   */
  public static String profileLabel(String profile) {
    StringBuilder label = new StringBuilder();
    for (char c : profile.toLowerCase(Locale.ROOT).toCharArray()) {
      if (c == '.') {
        continue;
      }
      boolean kept = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
      if (kept) {
        label.append(c);
      } else if (label.length() > 0 && label.charAt(label.length() - 1) != '-') {
        label.append('-');
      }
    }
    while (label.length() > 0 && label.charAt(label.length() - 1) == '-') {
      label.setLength(label.length() - 1);
    }
    return label.length() == 0 ? "mig" : label.toString();
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
