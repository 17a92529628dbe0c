package io.github.dra4j.examples.gpu.nvml;

import io.github.dra4j.testing.cdi.injection.HostNode;
import io.github.dra4j.testing.cdi.injection.OciMount;
import java.nio.file.NoSuchFileException;
import java.util.List;

/**
 * What a runtime makes of the driver's CDI specs in {@link NvmlDriverTest}: the mounts expected
 * from a driver root the host has at {@code /run/nvidia/driver}, and a host whose device nodes
 * there are NVIDIA's character devices (the fake driver root has regular files: real nodes need
 * root).
 */
final class DriverSpecs {

  private static final String HOST_ROOT = "/run/nvidia/driver";

  private DriverSpecs() {}

  /** A read-only file mount of a path inside the driver root. */
  static OciMount readOnly(String path) {
    return new OciMount(path, "", HOST_ROOT + path, List.of("ro", "nosuid", "nodev", "bind"));
  }

  /** A socket or pipe-directory mount of a path inside the driver root. */
  static OciMount ipc(String path) {
    return new OciMount(path, "", HOST_ROOT + path, List.of("nosuid", "nodev", "rbind",
        "rprivate", "noexec"));
  }

  /** The host's {@code lstat}: NVIDIA's nodes under the driver root, nothing else. */
  static HostNode node(String path) throws NoSuchFileException {
    String prefix = HOST_ROOT + "/dev/nvidia";
    if (!path.startsWith(prefix)) {
      throw new NoSuchFileException(path);
    }
    String name = path.substring(prefix.length());
    long minor = switch (name) {
      case "ctl" -> 255;
      case "-modeset" -> 254;
      case "-uvm" -> 0;
      case "-uvm-tools" -> 1;
      default -> Long.parseLong(name);
    };
    return new HostNode("c", name.startsWith("-uvm") ? 508 : 195, minor, 0666);
  }
}
