package io.github.dra4j.examples.gpu.nvml;

import io.github.dra4j.examples.gpu.backend.HostDeviceNode;
import io.github.dra4j.examples.gpu.discovery.DiscoveryException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The NVIDIA driver's files as this container sees them (under the container driver root) and
 * as the host sees them (under the host driver root): finds NVML and {@code nvidia-smi}, and
 * gives device nodes their host paths. Immutable; only reads the file system.
 *
 * <p>Device nodes: if the driver root has {@code dev/nvidiactl}, the driver's device nodes are
 * there (a containerized driver, or the host's root mounted with its {@code /dev}), and a node
 * {@code /dev/X} has host path {@code <host driver root>/dev/X}; otherwise they are in this
 * container's own {@code /dev} (a privileged plugin sees the host's), with the same path on the
 * host.
 */
final class DriverRoot {

  /** The library's file name. */
  static final String LIBRARY_NAME = "libnvidia-ml.so.1";

  /** Where NVML is looked up under the driver root, in this order. */
  static final List<String> LIBRARY_DIRS = List.of("/usr/lib64", "/usr/lib/x86_64-linux-gnu",
      "/usr/lib/aarch64-linux-gnu", "/lib64", "/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu");

  /** Where {@code nvidia-smi} is looked up under the driver root, in this order. */
  static final List<String> BIN_DIRS = List.of("/opt/bin", "/usr/bin", "/usr/sbin", "/bin",
      "/sbin");

  private final Path containerRoot;
  private final Path hostRoot;

  DriverRoot(Path containerRoot, Path hostRoot) {
    this.containerRoot = containerRoot;
    this.hostRoot = hostRoot;
  }

  /** The container driver root. */
  Path containerRoot() {
    return containerRoot;
  }

  /** Where NVML may be, in lookup order. */
  List<Path> libraryCandidates() {
    return LIBRARY_DIRS.stream().map(dir -> under(dir).resolve(LIBRARY_NAME)).toList();
  }

  /**
   * The first {@link #libraryCandidates() candidate} that is a file.
   *
   * @throws DiscoveryException naming every path tried
   */
  Path findLibrary() throws DiscoveryException {
    List<Path> candidates = libraryCandidates();
    for (Path candidate : candidates) {
      if (Files.isRegularFile(candidate)) {
        return candidate;
      }
    }
    throw new DiscoveryException(LIBRARY_NAME + " not found under the driver root "
        + containerRoot + " (is the NVIDIA driver installed and DRIVER_ROOT_CTR_PATH right?);"
        + " tried " + joined(candidates));
  }

  /** Where {@code nvidia-smi} may be, in lookup order. */
  List<Path> nvidiaSmiCandidates() {
    return BIN_DIRS.stream().map(dir -> under(dir).resolve("nvidia-smi")).toList();
  }

  /** The first {@link #nvidiaSmiCandidates() candidate} that is an executable file. */
  Optional<Path> findNvidiaSmi() {
    return findExecutable("nvidia-smi");
  }

  /**
   * The first executable file of this name in the driver root's {@link #BIN_DIRS}, for example
   * {@code nvidia-cuda-mps-control}.
   *
   * @param name a file name
   */
  Optional<Path> findExecutable(String name) {
    return BIN_DIRS.stream().map(dir -> under(dir).resolve(name))
        .filter(p -> Files.isRegularFile(p) && Files.isExecutable(p)).findFirst();
  }

  /** Whether the driver's device nodes are under the driver root (see the class comment). */
  boolean devicesUnderDriverRoot() {
    return Files.exists(under("/dev/nvidiactl"));
  }

  /**
   * A device node with its host path.
   *
   * @param path the path in the container, for example {@code /dev/nvidia0}
   */
  HostDeviceNode deviceNode(String path) {
    if (devicesUnderDriverRoot()) {
      return new HostDeviceNode(path, hostRoot.resolve(path.substring(1)).toString());
    }
    return new HostDeviceNode(path, path);
  }

  /**
   * Whether a device node exists where this container sees it.
   *
   * @param path the path in the container, for example {@code /dev/nvidia-uvm}
   */
  boolean deviceExists(String path) {
    return Files.exists(devicesUnderDriverRoot() ? under(path) : Path.of(path));
  }

  static String joined(List<Path> paths) {
    return paths.stream().map(Path::toString).collect(Collectors.joining(", "));
  }

  private Path under(String absolute) {
    return containerRoot.resolve(absolute.substring(1));
  }
}
