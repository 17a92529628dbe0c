package io.github.dra4j.examples.gpu.nvml.driverfiles;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * A part of the NVIDIA driver's user space a container may get, named as NVIDIA names driver
 * capabilities. Each has its libraries (by the name before the version, {@code libcuda.so} for
 * {@code libcuda.so.550.54.15}) and binaries; the lists follow NVIDIA's container library
 * (libnvidia-container, {@code src/nvc_info.c}), see {@code docs/driver-files.md}.
 */
public enum DriverCapability {

  /** CUDA and OpenCL: the driver API, the JIT compilers, the MPS tools. */
  COMPUTE(List.of("libcuda.so", "libcudadebugger.so", "libnvidia-opencl.so",
      "libnvidia-gpucomp.so", "libnvidia-ptxjitcompiler.so", "libnvidia-fatbinaryloader.so",
      "libnvidia-allocator.so", "libnvidia-compiler.so", "libnvidia-pkcs11.so",
      "libnvidia-pkcs11-openssl3.so", "libnvidia-nvvm.so", "libnvidia-tileiras.so"),
      List.of("nvidia-cuda-mps-control", "nvidia-cuda-mps-server"),
      Optional.of("libcuda.so")),

  /** NVML and the management tools: what {@code nvidia-smi} needs. */
  UTILITY(List.of("libnvidia-ml.so", "libnvidia-cfg.so", "libnvidia-nscq.so"),
      List.of("nvidia-smi", "nvidia-debugdump", "nvidia-persistenced"),
      Optional.of("libnvidia-ml.so")),

  /** Video encoding and decoding (NVENC, NVDEC, VDPAU, optical flow). */
  VIDEO(List.of("libvdpau_nvidia.so", "libnvidia-encode.so", "libnvidia-opticalflow.so",
      "libnvcuvid.so"), List.of(), Optional.empty()),

  /** OpenGL, EGL, Vulkan and OptiX: the vendor libraries only (no ICD or profile files). */
  GRAPHICS(List.of("libnvidia-eglcore.so", "libnvidia-glcore.so", "libnvidia-tls.so",
      "libnvidia-glsi.so", "libnvidia-fbc.so", "libnvidia-ifr.so", "libnvidia-rtcore.so",
      "libnvoptix.so", "libGLX_nvidia.so", "libEGL_nvidia.so", "libGLESv2_nvidia.so",
      "libGLESv1_CM_nvidia.so", "libnvidia-glvkspirv.so", "libnvidia-cbl.so"),
      List.of(), Optional.empty());

  /** What containers get unless configured: {@code compute,utility}. */
  public static final Set<DriverCapability> DEFAULT = Set.of(COMPUTE, UTILITY);

  // Both lists are made by List.of, so they cannot change; the check knows only Guava's.
  @SuppressWarnings("ImmutableEnumChecker")
  private final List<String> libraries;

  @SuppressWarnings("ImmutableEnumChecker")
  private final List<String> binaries;
  private final Optional<String> requiredLibrary;

  DriverCapability(List<String> libraries, List<String> binaries,
      Optional<String> requiredLibrary) {
    this.libraries = libraries;
    this.binaries = binaries;
    this.requiredLibrary = requiredLibrary;
  }

  /**
   * The libraries, each as its file name before the version ({@code libcuda.so}).
   *
   * @return the names
   */
  public List<String> libraries() {
    return libraries;
  }

  /**
   * The binaries' file names.
   *
   * @return the names
   */
  public List<String> binaries() {
    return binaries;
  }

  /**
   * The library without which the capability is useless: finding none is an error.
   *
   * @return the name before the version, or empty if none is required
   */
  public Optional<String> requiredLibrary() {
    return requiredLibrary;
  }

  /**
   * The name in settings: {@code compute}, {@code utility}, {@code video}, {@code graphics}.
   *
   * @return the lower-case name
   */
  public String settingName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * Parses a comma-separated list of capabilities, or {@code all}.
   *
   * @param source where the text is from (a variable or flag), for the message
   * @param text for example {@code compute,utility}; case and blanks do not matter
   * @return the capabilities, never empty
   * @throws IllegalArgumentException naming {@code source}, the text and the unknown entry, or if
   *     the list is empty
   */
  public static Set<DriverCapability> parse(String source, String text) {
    Set<DriverCapability> result = EnumSet.noneOf(DriverCapability.class);
    List<String> unknown = new ArrayList<>();
    for (String entry : text.split(",", -1)) {
      String name = entry.strip().toLowerCase(Locale.ROOT);
      if (name.isEmpty()) {
        continue;
      }
      if (name.equals("all")) {
        result.addAll(EnumSet.allOf(DriverCapability.class));
        continue;
      }
      boolean known = false;
      for (DriverCapability capability : values()) {
        if (capability.settingName().equals(name)) {
          result.add(capability);
          known = true;
        }
      }
      if (!known) {
        unknown.add(entry.strip());
      }
    }
    if (!unknown.isEmpty() || result.isEmpty()) {
      throw new IllegalArgumentException(source + "=\"" + text + "\" must be a comma-separated"
          + " list of compute, utility, video, graphics or all"
          + (unknown.isEmpty() ? " (it is empty)" : "; unknown: " + String.join(", ", unknown)));
    }
    return Set.copyOf(result);
  }
}
