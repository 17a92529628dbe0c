package io.github.dra4j.examples.gpu.container;

import java.nio.file.Path;
import java.util.List;

/**
 * What one container run produced.
 *
 * @param exitCode the container process's exit code, as the OCI runtime reports it (127 when the
 *     dynamic loader cannot start the program); -1 if the run timed out
 * @param stdout the container's standard output
 * @param stderr the container's and the runtime's standard error (hook failures land here)
 * @param bundle the bundle directory, with {@code config.json}; kept for inspection
 * @param rootfs the container's root file system, as the hooks left it
 */
public record ContainerRun(int exitCode, String stdout, String stderr, Path bundle, Path rootfs) {

  /**
   * Returns the standard output's lines.
   *
   * @return the lines, without line ends
   */
  public List<String> stdoutLines() {
    return stdout.lines().toList();
  }

  /**
   * Describes the run for assertion messages.
   *
   * @return exit code, output and error
   */
  public String describe() {
    return "exit " + exitCode + "\n--- stdout\n" + stdout + "--- stderr\n" + stderr;
  }
}
