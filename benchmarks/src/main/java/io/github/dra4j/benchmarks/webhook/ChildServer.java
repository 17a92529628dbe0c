package io.github.dra4j.benchmarks.webhook;

import io.github.dra4j.benchmarks.floor.ServerProcess;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A server run in a JVM of its own, so that its start-up and memory are its own: the benchmark's
 * class path and main class with {@code child} and arguments, which starts the server and prints
 * {@code PORT <n>} as its first line. Its standard error is discarded.
 */
final class ChildServer {

  private ChildServer() {}

  /**
   * Starts the child JVM.
   *
   * @param main the benchmark whose {@code main} serves as the child
   * @param flags the JVM's options
   * @param args what follows {@code child}
   * @return the process; its owner ends it
   * @throws IOException if it cannot be started
   */
  static Process start(Class<?> main, List<String> flags, List<String> args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(flags);
    command.add("-cp");
    command.add(ServerProcess.JvmLaunch.currentClassPath()); // right under exec:java too
    command.add(main.getName());
    command.add("child");
    command.addAll(args);
    return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
  }

  /**
   * Waits for the child's first line and reads the port from it.
   *
   * @param process the child
   * @return the port its server listens on
   * @throws IOException if its output cannot be read
   * @throws IllegalStateException if the first line is not {@code PORT <n>}
   */
  static int port(Process process) throws IOException {
    String line = new BufferedReader(new InputStreamReader(process.getInputStream(),
        StandardCharsets.UTF_8)).readLine();
    if (line == null || !line.startsWith("PORT ")) {
      throw new IllegalStateException("the server did not start: " + line);
    }
    return Integer.parseInt(line.substring(5).trim());
  }
}
