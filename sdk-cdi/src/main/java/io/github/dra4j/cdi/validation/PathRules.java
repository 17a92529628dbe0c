package io.github.dra4j.cdi.validation;

import java.util.Optional;

/** The writer's rule for paths: absolute, normalized, no NUL. Runtimes do not check this. */
final class PathRules {
  private PathRules() {}

  static Optional<String> absolutePathProblem(String path) {
    if (path.indexOf('\0') >= 0) {
      return Optional.of("path contains a NUL character");
    }
    if (!path.startsWith("/")) {
      return Optional.of("path must be absolute");
    }
    if (path.length() > 1 && path.endsWith("/")) {
      return Optional.of("path must not end with '/'");
    }
    for (String segment : path.substring(1).split("/", -1)) {
      if (path.length() > 1
          && (segment.isEmpty() || segment.equals(".") || segment.equals(".."))) {
        return Optional.of("path must be normalized (no empty, '.' or '..' segments)");
      }
    }
    return Optional.empty();
  }
}
