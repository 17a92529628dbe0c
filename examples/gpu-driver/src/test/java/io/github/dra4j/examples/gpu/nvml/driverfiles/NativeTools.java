package io.github.dra4j.examples.gpu.nvml.driverfiles;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/** gcc and ldconfig for {@link FakeDriverRoot}: skip the calling test where either is missing. */
final class NativeTools {

  private NativeTools() {}

  static void compile(String gcc, Path source, String soname, Path output)
      throws IOException, InterruptedException {
    run(List.of(gcc, "-shared", "-fPIC", "-Wl,-soname," + soname, "-o",
        output.toString(), source.toString()));
  }

  static String ldconfig() throws InterruptedException {
    for (String candidate : List.of("/sbin/ldconfig", "/usr/sbin/ldconfig")) {
      if (Files.isExecutable(Path.of(candidate))) {
        return candidate;
      }
    }
    return tool("ldconfig", "--version");
  }

  static String tool(String name, String probe) throws InterruptedException {
    try {
      if (run(List.of(name, probe), false) == 0) {
        return name;
      }
    } catch (IOException e) {
      // reported below
    }
    Assumptions.assumeTrue(false, name + " not found: the fake driver root needs gcc and"
        + " ldconfig, skipped");
    throw new IllegalStateException("unreachable");
  }

  static void run(List<String> command) throws IOException, InterruptedException {
    run(command, true);
  }

  static int run(List<String> command, boolean check)
      throws IOException, InterruptedException {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    process.getOutputStream().close();
    String output = new String(process.getInputStream().readAllBytes(),
        StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      fail("timed out: " + command);
    }
    if (check && process.exitValue() != 0) {
      fail(String.join(" ", command) + " failed (exit " + process.exitValue() + "): "
          + output);
    }
    return process.exitValue();
  }
}
