package io.github.dra4j.examples.gpu.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * {@code gpu-driver-demo.jar}, run as the README runs it: the driver's commands with the demo and
 * the simulated node it runs on, so that {@code java -jar gpu-driver-demo.jar demo} tells the
 * whole story to its end.
 */
class DemoJarIT {

  private static final Path DEMO = Path.of("target", "gpu-driver-demo.jar").toAbsolutePath();

  private static Result run(String... arguments) throws Exception {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
        DEMO.toString()));
    command.addAll(List.of(arguments));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
    return new Result(process.exitValue(), output);
  }

  private record Result(int status, String output) {}

  @Test
  void theDemoRunsToItsEnd() throws Exception {
    Result demo = run("demo");

    assertThat(demo.status()).as(demo.output()).isZero();
    assertThat(demo.output()).contains("GPU_DEVICE_0=gpu-0", "Done.")
        .doesNotContain("Demo failed", "Exception");
  }

  @Test
  void theJarRunsTheDriversCommandLineAndAllowsNativeAccess() throws Exception {
    try (JarFile file = new JarFile(DEMO.toFile())) {
      Attributes main = file.getManifest().getMainAttributes();
      assertThat(main.getValue("Enable-Native-Access")).isEqualTo("ALL-UNNAMED");
      assertThat(main.getValue("Main-Class"))
          .isEqualTo("io.github.dra4j.examples.gpu.command.GpuDriverMain");
    }
    Result help = run("--help");
    assertThat(help.status()).as(help.output()).isZero();
    assertThat(help.output()).contains("kubelet-plugin", "webhook", "demo");
  }
}
