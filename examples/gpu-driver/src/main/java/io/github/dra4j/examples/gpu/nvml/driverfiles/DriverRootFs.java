package io.github.dra4j.examples.gpu.nvml.driverfiles;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A driver root seen from two sides: where this process reads it ({@code containerRoot}, for
 * example {@code /driver-root}) and where the host has it ({@code hostRoot}, {@code /} or {@code
 * /run/nvidia/driver}). Paths are handed around as absolute paths inside the root ({@code
 * /usr/lib/x86_64-linux-gnu/libcuda.so.1}): that is also their path in a workload container.
 *
 * <p>Symbolic links are followed inside the root: an absolute target starts again at the root
 * (as it would for a process whose root the driver root is), {@code ..} stops at the root, and
 * more than {@value #MAX_LINKS} links on one path count as a loop. So nothing outside the root is
 * ever named, whatever the links under it say. Immutable; reads the file system on each call.
 *
 * @param containerRoot where this process sees the driver root
 * @param hostRoot where the host has it
 */
public record DriverRootFs(Path containerRoot, Path hostRoot) {

  /** The most symbolic links followed on one path, as Linux allows. */
  static final int MAX_LINKS = 40;

  /**
   * Checks the roots.
   *
   * @param containerRoot where this process sees the driver root, absolute
   * @param hostRoot where the host has it, absolute
   */
  public DriverRootFs {
    Objects.requireNonNull(containerRoot, "containerRoot");
    Objects.requireNonNull(hostRoot, "hostRoot");
    if (!containerRoot.isAbsolute() || !hostRoot.isAbsolute()) {
      throw new IllegalArgumentException("driver roots must be absolute, got " + containerRoot
          + " and " + hostRoot);
    }
    containerRoot = containerRoot.normalize();
    hostRoot = hostRoot.normalize();
  }

  /**
   * Where this process reads a path of the root.
   *
   * @param path an absolute path inside the root
   * @return the path under {@code containerRoot}
   * @throws IllegalArgumentException if the path is relative or its {@code ..} leave the root
   */
  public Path inContainer(String path) {
    return within(containerRoot, path);
  }

  /**
   * Where the host has a path of the root.
   *
   * @param path an absolute path inside the root
   * @return the path under {@code hostRoot}
   * @throws IllegalArgumentException if the path is relative or its {@code ..} leave the root
   */
  public String onHost(String path) {
    return within(hostRoot, path).toString();
  }

  /**
   * The path with every symbolic link resolved inside the root.
   *
   * @param path an absolute path inside the root
   * @return the real path inside the root, or empty if a component does not exist, cannot be
   *     read or the links loop
   */
  public Optional<String> realPath(String path) {
    Deque<String> pending = new ArrayDeque<>(components(path));
    List<String> resolved = new ArrayList<>();
    int links = 0;
    while (!pending.isEmpty()) {
      String name = pending.pop();
      if (name.isEmpty() || name.equals(".")) {
        continue;
      }
      if (name.equals("..")) {
        if (!resolved.isEmpty()) {
          resolved.remove(resolved.size() - 1);
        }
        continue;
      }
      Path at = inContainer(resolved.isEmpty() ? "/" + name : join(resolved) + "/" + name);
      BasicFileAttributes attributes;
      try {
        attributes = Files.readAttributes(at, BasicFileAttributes.class,
            LinkOption.NOFOLLOW_LINKS);
      } catch (IOException e) {
        return Optional.empty();
      }
      if (!attributes.isSymbolicLink()) {
        resolved.add(name);
        continue;
      }
      if (++links > MAX_LINKS) {
        return Optional.empty();
      }
      String target;
      try {
        target = Files.readSymbolicLink(at).toString();
      } catch (IOException e) {
        return Optional.empty();
      }
      if (target.startsWith("/")) {
        resolved.clear();
      }
      List<String> parts = components(target);
      for (int i = parts.size() - 1; i >= 0; i--) {
        pending.push(parts.get(i));
      }
    }
    return Optional.of(join(resolved));
  }

  /**
   * The real path, if it is a regular file.
   *
   * @param path an absolute path inside the root
   * @return its real path inside the root, or empty
   */
  public Optional<String> regularFile(String path) {
    return realPath(path).filter(real -> Files.isRegularFile(inContainer(real),
        LinkOption.NOFOLLOW_LINKS));
  }

  private static List<String> components(String path) {
    return List.of(path.split("/"));
  }

  private static String join(List<String> parts) {
    return "/" + String.join("/", parts);
  }

  private static Path within(Path root, String path) {
    if (!path.startsWith("/")) {
      throw new IllegalArgumentException("not an absolute path inside the driver root: " + path);
    }
    Path resolved = root.resolve(path.replaceFirst("^/+", "")).normalize();
    if (!resolved.startsWith(root)) {
      throw new IllegalArgumentException("path " + path + " leaves the driver root " + root);
    }
    return resolved;
  }
}
