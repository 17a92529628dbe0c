package io.github.dra4j.examples.gpu.nvml.driverfiles;

import io.github.dra4j.examples.gpu.NativeTools;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A fake NVIDIA driver installation for tests, laid out as the driver's installer lays out a real
 * one (here for driver {@link #DEFAULT_VERSION} unless told otherwise), built under a directory
 * that plays the driver root:
 *
 * <ul>
 *   <li>{@link #libraryDir()}: each library of {@link #DEFAULT_LIBRARIES} as a real (empty) ELF
 *       shared object {@code <name>.<version>} compiled with gcc and the real SONAME, with the
 *       SONAME symlink beside it where the SONAME differs, plus the {@code libcuda.so}
 *       development link and a decoy of another library family ({@code
 *       libnvidia-egl-wayland.so.1.1.13});
 *   <li>{@code /etc/ld.so.conf} and {@code /etc/ld.so.cache} made by the real {@code ldconfig -X
 *       -r <root>} (paths in the cache are inside the root);
 *   <li>{@code /lib/firmware/nvidia/<version>/gsp_ga10x.bin} and {@code gsp_tu10x.bin};
 *   <li>{@code /usr/bin}: {@code nvidia-smi}, {@code nvidia-debugdump}, {@code
 *       nvidia-persistenced}, {@code nvidia-cuda-mps-control}, {@code nvidia-cuda-mps-server} as
 *       scripts that exit 0, and {@code nvidia-cdi-hook}, a script that appends its arguments as
 *       one line to {@link #hookLog()} and reads its standard input (the OCI state);
 *   <li>{@code /run/nvidia-persistenced/socket}, a real Unix socket file (nothing listens), and
 *       the MPS pipe directory {@code /tmp/nvidia-mps};
 *   <li>{@code /dev/nvidiactl}, {@code nvidia-uvm}, {@code nvidia-uvm-tools}, {@code
 *       nvidia-modeset} and {@code nvidia0} to {@code nvidia7} as empty regular files (real
 *       nodes need root): the NVML backend then takes the driver root's {@code /dev} as the
 *       device root.
 * </ul>
 *
 * <p>Usage: {@code FakeDriverRoot root = FakeDriverRoot.create(dir, "550.54.15");} or {@code
 * FakeDriverRoot.builder(dir, version).leftoverVersion("535.104.05").withoutHook().build()}. The
 * test owns the directory; the class skips the calling test (JUnit assumption) where gcc or
 * ldconfig is missing. Immutable once built.
 */
public final class FakeDriverRoot {

  /** The driver version of {@link #create(Path)}: a real release. */
  public static final String DEFAULT_VERSION = "550.54.15";

  /**
   * The libraries of a default root, name before the version to SONAME; a SONAME of {@code null}
   * means the file name itself (as the driver ships {@code libnvidia-glcore} and a few others).
   */
  public static final Map<String, String> DEFAULT_LIBRARIES = defaults();

  private final Path root;
  private final String version;
  private final String libraryDir;
  private final Map<String, String> libraries;
  private final Optional<Path> hook;

  private FakeDriverRoot(Path root, String version, String libraryDir,
      Map<String, String> libraries, Optional<Path> hook) {
    this.root = root;
    this.version = version;
    this.libraryDir = libraryDir;
    this.libraries = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(libraries));
    this.hook = hook;
  }

  private static Map<String, String> defaults() {
    Map<String, String> map = new LinkedHashMap<>();
    map.put("libnvidia-ml.so", "libnvidia-ml.so.1");
    map.put("libnvidia-cfg.so", "libnvidia-cfg.so.1");
    map.put("libcuda.so", "libcuda.so.1");
    map.put("libcudadebugger.so", "libcudadebugger.so.1");
    map.put("libnvidia-opencl.so", "libnvidia-opencl.so.1");
    map.put("libnvidia-gpucomp.so", null);
    map.put("libnvidia-ptxjitcompiler.so", "libnvidia-ptxjitcompiler.so.1");
    map.put("libnvidia-allocator.so", "libnvidia-allocator.so.1");
    map.put("libnvidia-pkcs11-openssl3.so", null);
    map.put("libnvidia-nvvm.so", "libnvidia-nvvm.so.4");
    map.put("libnvidia-encode.so", "libnvidia-encode.so.1");
    map.put("libnvcuvid.so", "libnvcuvid.so.1");
    map.put("libnvidia-opticalflow.so", "libnvidia-opticalflow.so.1");
    map.put("libGLX_nvidia.so", "libGLX_nvidia.so.0");
    map.put("libEGL_nvidia.so", "libEGL_nvidia.so.0");
    map.put("libnvidia-glcore.so", null);
    map.put("libnvidia-eglcore.so", null);
    return java.util.Collections.unmodifiableMap(map);
  }

  /**
   * A default root for {@link #DEFAULT_VERSION}.
   *
   * @param root the directory to build it in (created if missing)
   * @return the root
   * @throws IOException if a file cannot be written
   * @throws InterruptedException if interrupted while gcc or ldconfig runs
   */
  public static FakeDriverRoot create(Path root) throws IOException, InterruptedException {
    return builder(root, DEFAULT_VERSION).build();
  }

  /**
   * A default root for a version.
   *
   * @param root the directory to build it in (created if missing)
   * @param version the driver version, for example {@code 570.86.15}
   * @return the root
   * @throws IOException if a file cannot be written
   * @throws InterruptedException if interrupted while gcc or ldconfig runs
   */
  public static FakeDriverRoot create(Path root, String version)
      throws IOException, InterruptedException {
    return builder(root, version).build();
  }

  /**
   * A builder, to change the defaults.
   *
   * @param root the directory to build it in (created if missing)
   * @param version the driver version
   * @return the builder
   */
  public static Builder builder(Path root, String version) {
    return new Builder(root, version);
  }

  /** The driver root (where the plugin would see it). */
  public Path root() {
    return root;
  }

  /** The driver version. */
  public String version() {
    return version;
  }

  /**
   * The directory of the libraries inside the root: {@code /usr/lib/<arch>-linux-gnu} unless
   * the builder set another.
   */
  public String libraryDir() {
    return libraryDir;
  }

  /** The libraries built: name before the version to SONAME (the file name if null). */
  public Map<String, String> libraries() {
    return libraries;
  }

  /**
   * A library's file path inside the root.
   *
   * @param name its name before the version, for example {@code libcuda.so}
   * @return for example {@code /usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15}
   */
  public String library(String name) {
    return libraryDir + "/" + name + "." + version;
  }

  /** The stub {@code nvidia-cdi-hook}, if built. */
  public Optional<Path> hook() {
    return hook;
  }

  /** Where the stub hook writes one line per call: its arguments. */
  public Path hookLog() {
    return root.resolve("nvidia-cdi-hook.log");
  }

  /** The stub hook's calls so far, one line each. */
  public List<String> hookCalls() throws IOException {
    return Files.exists(hookLog()) ? Files.readAllLines(hookLog()) : List.of();
  }

  /** The multiarch library directory of this machine's architecture. */
  static String multiarchDir() {
    String arch = System.getProperty("os.arch");
    return "/usr/lib/" + (arch.equals("aarch64") ? "aarch64" : "x86_64") + "-linux-gnu";
  }

  /** Builds a {@link FakeDriverRoot}; not thread-safe. */
  public static final class Builder {
    private final Path root;
    private final String version;
    private final Map<String, String> libraries = new LinkedHashMap<>(DEFAULT_LIBRARIES);
    private final Map<String, String> sources = new LinkedHashMap<>();
    private final List<String> leftovers = new ArrayList<>();
    private boolean hook = true;
    private String hookBody;
    private boolean cache = true;
    private boolean sockets = true;
    private boolean firmware = true;
    private String libraryDir = multiarchDir();

    private Builder(Path root, String version) {
      this.root = root;
      this.version = version;
    }

    /** Leaves a library out (for example to test a missing {@code libcuda.so}). */
    public Builder without(String name) {
      libraries.remove(name);
      return this;
    }

    /**
     * Compiles a library from C source instead of an empty object, for example a stub {@code
     * libcuda.so} a container test's program calls.
     */
    public Builder librarySource(String name, String cSource) {
      sources.put(name, cSource);
      libraries.putIfAbsent(name, name + ".1");
      return this;
    }

    /** Also leaves the libraries and firmware of another version behind, as an upgrade does. */
    public Builder leftoverVersion(String other) {
      leftovers.add(other);
      return this;
    }

    /** No {@code nvidia-cdi-hook}. */
    public Builder withoutHook() {
      this.hook = false;
      return this;
    }

    /** The stub hook's shell script body after the line that logs its arguments. */
    public Builder hookScript(String body) {
      this.hookBody = body;
      return this;
    }

    /** No {@code /etc/ld.so.cache}. */
    public Builder withoutLinkerCache() {
      this.cache = false;
      return this;
    }

    /** No sockets and no MPS pipe directory. */
    public Builder withoutSockets() {
      this.sockets = false;
      return this;
    }

    /**
     * Puts the libraries in another directory inside the root, which only {@code
     * /etc/ld.so.conf} (and so the linker cache) names, as some distributions' drivers do.
     */
    public Builder libraryDir(String path) {
      this.libraryDir = path;
      return this;
    }

    /** No firmware. */
    public Builder withoutFirmware() {
      this.firmware = false;
      return this;
    }

    /**
     * Builds the root.
     *
     * @return the root
     * @throws IOException if a file cannot be written
     * @throws InterruptedException if interrupted while gcc or ldconfig runs
     */
    public FakeDriverRoot build() throws IOException, InterruptedException {
      String gcc = NativeTools.gcc("the fake driver root compiles its libraries and indexes them");
      String libDir = libraryDir;
      Path libs = Files.createDirectories(under(libDir));
      Path empty = libs.resolve(".fake-empty.c");
      Files.writeString(empty, "int dra4j_fake_driver_library(void) { return 0; }\n");
      for (Map.Entry<String, String> library : libraries.entrySet()) {
        String file = library.getKey() + "." + version;
        String soname = library.getValue() == null ? file : library.getValue();
        Path source = empty;
        if (sources.containsKey(library.getKey())) {
          source = libs.resolve(".fake-" + library.getKey() + ".c");
          Files.writeString(source, sources.get(library.getKey()));
        }
        NativeTools.compileLibrary(gcc, source, soname, libs.resolve(file));
        if (!soname.equals(file)) {
          Files.createSymbolicLink(libs.resolve(soname), Path.of(file));
        }
      }
      if (libraries.containsKey("libcuda.so")) {
        Files.createSymbolicLink(libs.resolve("libcuda.so"), Path.of("libcuda.so.1"));
      }
      NativeTools.compileLibrary(gcc, empty, "libnvidia-egl-wayland.so.1", libs.resolve(
          "libnvidia-egl-wayland.so.1.1.13"));
      Files.createSymbolicLink(libs.resolve("libnvidia-egl-wayland.so.1"),
          Path.of("libnvidia-egl-wayland.so.1.1.13"));
      for (String other : leftovers) {
        for (String name : List.of("libcuda.so", "libnvidia-ml.so",
            "libnvidia-ptxjitcompiler.so")) {
          String soname = DEFAULT_LIBRARIES.get(name);
          NativeTools.compileLibrary(gcc, empty, soname, libs.resolve(name + "." + other));
        }
        if (firmware) {
          write("/lib/firmware/nvidia/" + other + "/gsp_ga10x.bin", "old firmware");
        }
      }
      Files.delete(empty);
      for (String name : sources.keySet()) {
        Files.deleteIfExists(libs.resolve(".fake-" + name + ".c"));
      }
      write("/etc/ld.so.conf", libDir + "\n");
      if (cache) {
        NativeTools.run(List.of(
            NativeTools.ldconfig("the fake driver root compiles its libraries and indexes them"),
            "-X", "-r", root.toString(), "-f",
            "/etc/ld.so.conf", "-C", "/etc/ld.so.cache"));
      }
      if (firmware) {
        write("/lib/firmware/nvidia/" + version + "/gsp_ga10x.bin", "firmware");
        write("/lib/firmware/nvidia/" + version + "/gsp_tu10x.bin", "firmware");
      }
      for (String binary : List.of("nvidia-smi", "nvidia-debugdump", "nvidia-persistenced",
          "nvidia-cuda-mps-control", "nvidia-cuda-mps-server")) {
        script("/usr/bin/" + binary, "exit 0\n");
      }
      Optional<Path> hookPath = Optional.empty();
      if (hook) {
        Path log = root.resolve("nvidia-cdi-hook.log");
        hookPath = Optional.of(script("/usr/bin/nvidia-cdi-hook", "echo \"$*\" >> '" + log
            + "'\ncat > /dev/null\n" + (hookBody == null ? "exit 0\n" : hookBody)));
      }
      if (sockets) {
        Path socket = under("/run/nvidia-persistenced/socket");
        Files.createDirectories(socket.getParent());
        try (ServerSocketChannel channel = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
          channel.bind(UnixDomainSocketAddress.of(socket));
        }
        Files.createDirectories(under("/tmp/nvidia-mps"));
      }
      Path dev = Files.createDirectories(under("/dev"));
      for (String node : List.of("nvidiactl", "nvidia-uvm", "nvidia-uvm-tools",
          "nvidia-modeset")) {
        Files.writeString(dev.resolve(node), "");
      }
      for (int minor = 0; minor < 8; minor++) {
        Files.writeString(dev.resolve("nvidia" + minor), "");
      }
      return new FakeDriverRoot(root, version, libDir, libraries, hookPath);
    }

    private Path under(String path) {
      return root.resolve(path.substring(1));
    }

    private void write(String path, String content) throws IOException {
      Path file = under(path);
      Files.createDirectories(file.getParent());
      Files.writeString(file, content, StandardCharsets.UTF_8);
    }

    private Path script(String path, String body) throws IOException {
      Path file = under(path);
      Files.createDirectories(file.getParent());
      Files.writeString(file, "#!/bin/sh\n" + body, StandardCharsets.UTF_8);
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
      return file;
    }
  }
}
