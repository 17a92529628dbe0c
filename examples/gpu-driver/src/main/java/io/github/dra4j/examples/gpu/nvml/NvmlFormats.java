package io.github.dra4j.examples.gpu.nvml;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How NVML's raw values become what the driver publishes: versions as semantic versions, enum
 * values as names, bus IDs in sysfs form, MIG profile names. Stateless.
 */
final class NvmlFormats {

  private static final Pattern VERSION = Pattern.compile("(\\d+)(?:\\.(\\d+))?(?:\\.(\\d+))?");
  private static final Pattern BUS_ID = Pattern.compile(
      "([0-9a-fA-F]{1,8}):([0-9a-fA-F]{1,2}):([0-9a-fA-F]{1,2})\\.([0-7])");
  private static final Pattern PCIE_ROOT = Pattern.compile("pci[0-9a-f]{4}:[0-9a-f]{2}");
  private static final long MIB = 1024L * 1024L;

  private NvmlFormats() {}

  /**
   * A dotted version as a semantic version: {@code 570.86.15} stays, {@code 570.86} becomes
   * {@code 570.86.0}; leading zeros go ({@code 535.104.05} becomes {@code 535.104.5}), since
   * semantic versions do not allow them.
   *
   * @param what what the version is, for the message
   * @throws IllegalArgumentException if it is not one to three dot-separated numbers
   */
  static String semver(String what, String version) {
    Matcher m = VERSION.matcher(version.strip());
    if (!m.matches()) {
      throw new IllegalArgumentException(what + " \"" + version + "\" is not a version of one to"
          + " three numbers");
    }
    try {
      return Long.parseLong(m.group(1)) + "." + number(m.group(2)) + "." + number(m.group(3));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(what + " \"" + version + "\" has a number out of range",
          e);
    }
  }

  private static long number(String group) {
    return group == null ? 0 : Long.parseLong(group);
  }

  /**
   * The CUDA driver version from {@code nvmlSystemGetCudaDriverVersion_v2}: 12080 is {@code
   * 12.8.0}.
   */
  static String cudaVersion(int encoded) {
    if (encoded < 0) {
      throw new IllegalArgumentException("CUDA driver version " + encoded + " is negative");
    }
    return (encoded / 1000) + "." + (encoded % 1000 / 10) + ".0";
  }

  /** A compute capability as a semantic version: 9 and 0 are {@code 9.0.0}. */
  static String computeCapability(int major, int minor) {
    if (major < 0 || minor < 0) {
      throw new IllegalArgumentException("CUDA compute capability " + major + "." + minor
          + " is negative");
    }
    return major + "." + minor + ".0";
  }

  /**
   * NVML's bus ID ({@code 00000000:1B:00.0}) in the form sysfs names devices with, lower case
   * with a four-digit domain ({@code 0000:1b:00.0}); empty if it is not a bus ID.
   */
  static Optional<String> busId(String nvmlBusId) {
    Matcher m = BUS_ID.matcher(nvmlBusId.strip());
    if (!m.matches()) {
      return Optional.empty();
    }
    long domain = Long.parseLong(m.group(1), 16);
    return Optional.of(String.format(Locale.ROOT, "%04x:%02x:%02x.%s", domain,
        Integer.parseInt(m.group(2), 16), Integer.parseInt(m.group(3), 16), m.group(4)));
  }

  /**
   * The PCIe root complex of a PCI device: the {@code pciDDDD:BB} component of where {@code
   * <sysfs>/bus/pci/devices/<busId>} links to (for example {@code
   * ../../../devices/pci0000:16/0000:16:02.0/0000:1b:00.0} gives {@code pci0000:16}); empty if
   * the link cannot be read or has no such component.
   */
  static Optional<String> pcieRoot(Path sysfsRoot, String busId) {
    Path link = sysfsRoot.resolve("bus/pci/devices").resolve(busId);
    Path target;
    try {
      target = Files.readSymbolicLink(link);
    } catch (IOException | UnsupportedOperationException e) {
      return Optional.empty();
    }
    for (Path part : target) {
      if (PCIE_ROOT.matcher(part.toString()).matches()) {
        return Optional.of(part.toString());
      }
    }
    return Optional.empty();
  }

  /** An {@code nvmlBrandType_t} as a name, for example 14 ({@code NVML_BRAND_NVIDIA}) is Nvidia. */
  static String brand(int brand) {
    return switch (brand) {
      case 0 -> "Unknown";
      case 1 -> "Quadro";
      case 2 -> "Tesla";
      case 3 -> "NVS";
      case 4 -> "Grid";
      case 5 -> "GeForce";
      case 6 -> "Titan";
      case 7 -> "NvidiaVApps";
      case 8 -> "NvidiaVPC";
      case 9 -> "NvidiaVCS";
      case 10 -> "NvidiaVWS";
      case 11 -> "NvidiaCloudGaming";
      case 12 -> "QuadroRTX";
      case 13 -> "NvidiaRTX";
      case 14 -> "Nvidia";
      case 15 -> "GeForceRTX";
      case 16 -> "TitanRTX";
      default -> "Unknown" + brand;
    };
  }

  /** An {@code nvmlDeviceArchitecture_t} as a name, for example 9 is Hopper. */
  static String architecture(int architecture) {
    return switch (architecture) {
      case 2 -> "Kepler";
      case 3 -> "Maxwell";
      case 4 -> "Pascal";
      case 5 -> "Volta";
      case 6 -> "Turing";
      case 7 -> "Ampere";
      case 8 -> "Ada";
      case 9 -> "Hopper";
      case 10 -> "Blackwell";
      case 11 -> "Orin";
      default -> "Unknown";
    };
  }

  /**
   * A GPU instance profile's name the way {@code nvidia-smi mig -lgip} prints it, without the
   * {@code MIG } prefix: {@code <slices>g.<memory>gb} and a suffix for the media-engine variants
   * ({@code +me}, {@code +gfx}, {@code -me}, {@code +me.all}). The memory is the profile's share
   * of the GPU rounded up to eighths, times the GPU's memory in whole GiB (a 9856 MiB profile on
   * an 81559 MiB GPU is {@code 10gb}); without the GPU's memory, the profile's rounded up to GiB.
   *
   * @param profileIndex the {@code NVML_GPU_INSTANCE_PROFILE_*} index the profile was found at
   * @param slices the profile's slice count
   * @param profileMib the profile's memory in MiB
   * @param gpuBytes the whole GPU's memory in bytes; 0 if unknown
   */
  static String migProfileName(int profileIndex, int slices, long profileMib, long gpuBytes) {
    long gpuMib = gpuBytes / MIB;
    long gb;
    if (gpuMib > 0) {
      double eighths = Math.min(8, Math.ceil(8.0 * profileMib / gpuMib - 1e-9));
      long gpuGb = (gpuMib + 1023) / 1024;
      gb = Math.round(eighths / 8 * gpuGb);
    } else {
      gb = (profileMib + 1023) / 1024;
    }
    String suffix = switch (profileIndex) {
      case 7, 8 -> "+me";
      case 10, 11, 12 -> "+gfx";
      case 13, 14 -> "-me";
      case 15, 16 -> "+me.all";
      default -> "";
    };
    return slices + "g." + gb + "gb" + suffix;
  }
}
