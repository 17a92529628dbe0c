package io.github.dra4j.examples.gpu.nvml;

import java.io.IOException;
import java.util.List;

/**
 * Runs a command line to completion. {@link ProcessCommandRunner} runs processes; tests record
 * the command lines instead.
 */
@FunctionalInterface
public interface CommandRunner {

  /**
   * Runs a command and waits for it.
   *
   * @param command the program and its arguments
   * @return what the command printed
   * @throws IOException if it could not run, timed out or exited with a non-zero code; the
   *     message has the command line, the exit code and the output
   */
  String run(List<String> command) throws IOException;
}
