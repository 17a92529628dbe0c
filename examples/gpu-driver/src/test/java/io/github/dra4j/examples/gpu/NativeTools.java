package io.github.dra4j.examples.gpu;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * The native tools the tests build their stubs with (gcc, ldconfig), and this module's folder,
 * where the stubs' C sources are. A test whose tool is missing is skipped, saying which tool and
 * what it was for; a tool that fails fails the test with the command and its output. Stateless.
 */
public final class NativeTools {

  private NativeTools() {}

  /**
   * This module's folder, whether Maven runs the tests from it or from the repository's root.
   *
   * @return the folder holding {@code src/test/c}
   */
  public static Path moduleDir() {
    String basedir = System.getProperty("basedir");
    Path dir = basedir != null ? Path.of(basedir) : Path.of("").toAbsolutePath();
    if (!Files.isDirectory(dir.resolve("src/test/c")) && Files.isDirectory(
        dir.resolve("examples/gpu-driver/src/test/c"))) {
      dir = dir.resolve("examples/gpu-driver");
    }
    return dir;
  }

  /**
   * The C compiler ({@code gcc}, else {@code cc}), or skips the calling test.
   *
   * @param purpose what the test compiles, for the message when it is skipped
   * @return the compiler's command
   * @throws InterruptedException if interrupted while probing
   */
  public static String gcc(String purpose) throws InterruptedException {
    List<String> tried = new ArrayList<>();
    for (String gcc : List.of("gcc", "cc")) {
      if (works(gcc, "--version", tried)) {
        return gcc;
      }
    }
    Assumptions.abort("no C compiler: tried " + tried + "; " + purpose
        + " (apt-get install gcc libc6-dev), skipped");
    throw new IllegalStateException("unreachable");
  }

  /**
   * {@code ldconfig}, or skips the calling test.
   *
   * @param purpose what the test needs it for, for the message when it is skipped
   * @return the command
   * @throws InterruptedException if interrupted while probing
   */
  public static String ldconfig(String purpose) throws InterruptedException {
    for (String candidate : List.of("/sbin/ldconfig", "/usr/sbin/ldconfig")) {
      if (Files.isExecutable(Path.of(candidate))) {
        return candidate;
      }
    }
    List<String> tried = new ArrayList<>();
    if (works("ldconfig", "--version", tried)) {
      return "ldconfig";
    }
    Assumptions.abort("ldconfig not found: tried " + tried + "; " + purpose + ", skipped");
    throw new IllegalStateException("unreachable");
  }

  /**
   * Compiles one C file into a shared library with a SONAME.
   *
   * @param gcc the compiler
   * @param source the C file
   * @param soname the library's SONAME
   * @param output the library to write
   * @throws IOException if the compiler cannot be started
   * @throws InterruptedException if interrupted
   */
  public static void compileLibrary(String gcc, Path source, String soname, Path output)
      throws IOException, InterruptedException {
    run(List.of(gcc, "-shared", "-fPIC", "-Wl,-soname," + soname, "-o", output.toString(),
        source.toString()));
  }

  /**
   * Runs a command to its end (at most 60 s), failing the test if it fails.
   *
   * @param command the command
   * @return its output, standard output and error together
   * @throws IOException if it cannot be started
   * @throws InterruptedException if interrupted
   */
  public static String run(List<String> command) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    process.getOutputStream().close();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      fail("timed out: " + String.join(" ", command));
    }
    if (process.exitValue() != 0) {
      fail(String.join(" ", command) + " failed (exit " + process.exitValue() + "):\n" + output);
    }
    return output;
  }

  private static boolean works(String tool, String probe, List<String> tried)
      throws InterruptedException {
    try {
      Process process = new ProcessBuilder(tool, probe).redirectErrorStream(true).start();
      process.getOutputStream().close();
      process.getInputStream().readAllBytes();
      if (process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0) {
        return true;
      }
      process.destroyForcibly();
      tried.add(tool + " (exit " + (process.isAlive() ? "none" : process.exitValue()) + ")");
    } catch (IOException e) {
      tried.add(tool + " (" + e.getMessage() + ")");
    }
    return false;
  }
}
