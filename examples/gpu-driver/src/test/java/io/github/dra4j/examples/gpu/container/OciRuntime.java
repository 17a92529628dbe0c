package io.github.dra4j.examples.gpu.container;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * An OCI runtime binary that takes {@code --root} (its state directory) and {@code run --bundle}:
 * {@code crun} or {@code runc}.
 *
 * @param name {@code crun} or {@code runc}
 * @param executable the binary
 */
public record OciRuntime(String name, Path executable) {

  /** The runtimes tried, in order of preference. */
  public static final List<String> NAMES = List.of("crun", "runc");

  /**
   * Finds the runtimes installed on {@code PATH} (and in {@code /usr/sbin}, {@code /usr/bin},
   * {@code /sbin}), in the order of {@link #NAMES}.
   *
   * @return the installed runtimes; empty if none
   */
  public static List<OciRuntime> installed() {
    Set<Path> dirs = new LinkedHashSet<>();
    String path = System.getenv("PATH");
    if (path != null) {
      for (String dir : path.split(":", -1)) {
        if (!dir.isEmpty()) {
          dirs.add(Path.of(dir));
        }
      }
    }
    dirs.addAll(List.of(Path.of("/usr/sbin"), Path.of("/usr/bin"), Path.of("/sbin")));
    List<OciRuntime> found = new ArrayList<>();
    for (String name : NAMES) {
      find(name, dirs).ifPresent(found::add);
    }
    return found;
  }

  private static Optional<OciRuntime> find(String name, Set<Path> dirs) {
    for (Path dir : dirs) {
      Path candidate = dir.resolve(name);
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return Optional.of(new OciRuntime(name, candidate));
      }
    }
    return Optional.empty();
  }

  /**
   * Builds a command line for this runtime with its state under {@code stateRoot}.
   *
   * @param stateRoot the runtime's {@code --root} directory
   * @param args the subcommand and its arguments
   * @return the command
   */
  public List<String> command(Path stateRoot, String... args) {
    List<String> command = new ArrayList<>(List.of(executable.toString(), "--root",
        stateRoot.toString()));
    command.addAll(List.of(args));
    return command;
  }
}
