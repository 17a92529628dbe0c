package io.github.dra4j.testing.cdi.injection;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Map;

/** Reads mode and device number through the JDK's Linux {@code unix:} attribute view. */
final class LinuxHostDeviceNodes implements HostDeviceNodes {
  static final LinuxHostDeviceNodes INSTANCE = new LinuxHostDeviceNodes();

  private static final int S_IFMT = 0170000;
  private static final int S_IFBLK = 0060000;
  private static final int S_IFCHR = 0020000;
  private static final int S_IFIFO = 0010000;

  private LinuxHostDeviceNodes() {}

  @Override
  public HostNode lstat(String path) throws IOException {
    Map<String, Object> attributes = Files.readAttributes(Path.of(path), "unix:mode,rdev",
        LinkOption.NOFOLLOW_LINKS);
    int mode = (Integer) attributes.get("mode");
    long rdev = (Long) attributes.get("rdev");
    String type = switch (mode & S_IFMT) {
      case S_IFBLK -> "b";
      case S_IFCHR -> "c";
      case S_IFIFO -> "p";
      default -> "";
    };
    if (type.isEmpty() || type.equals("p")) {
      return new HostNode(type, 0, 0, mode & 0777);
    }
    // glibc's encoding of dev_t (gnu_dev_major / gnu_dev_minor).
    long major = ((rdev >>> 32) & 0xffff_f000L) | ((rdev >>> 8) & 0xfffL);
    long minor = ((rdev >>> 12) & 0xffff_ff00L) | (rdev & 0xffL);
    return new HostNode(type, major, minor, mode & 0777);
  }
}
