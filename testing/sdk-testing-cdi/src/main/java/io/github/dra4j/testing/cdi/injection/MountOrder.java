package io.github.dra4j.testing.cdi.injection;

import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;

/**
 * The runtime's mount order: a stable sort by the number of {@code /} in the cleaned destination,
 * so that parents are mounted before their children.
 */
final class MountOrder {
  private MountOrder() {}

  static void sort(List<OciMount> mounts) {
    mounts.sort(Comparator.comparingLong(m -> depth(m.destination())));
  }

  static long depth(String destination) {
    return clean(destination).chars().filter(c -> c == '/').count();
  }

  /**
   * Cleans a path lexically, without the file system: repeated slashes and {@code .} elements
   * go, {@code ..} removes the element before it (at the root of an absolute path it goes, at the
   * start of a relative one it stays), and no trailing slash stays; an empty path is {@code .}
   * (Go's {@code filepath.Clean}, which runtimes use).
   */
  static String clean(String path) {
    if (path.isEmpty()) {
      return ".";
    }
    boolean rooted = path.startsWith("/");
    Deque<String> parts = new ArrayDeque<>();
    for (String part : path.split("/", -1)) {
      if (part.isEmpty() || part.equals(".")) {
        continue;
      }
      if (part.equals("..")) {
        if (!parts.isEmpty() && !parts.peekLast().equals("..")) {
          parts.removeLast();
        } else if (!rooted) {
          parts.addLast("..");
        }
        continue;
      }
      parts.addLast(part);
    }
    String joined = String.join("/", parts);
    if (rooted) {
      return "/" + joined;
    }
    return joined.isEmpty() ? "." : joined;
  }
}
