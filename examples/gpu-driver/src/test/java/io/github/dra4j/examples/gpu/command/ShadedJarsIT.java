package io.github.dra4j.examples.gpu.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/**
 * The executable jar the image runs: it holds none of the test machinery, no CEL compiler and
 * none of fabric8's models of API groups the driver never uses (though its pom excludes nothing),
 * and says where the demo is ({@code gpu-driver-demo.jar}, which {@code examples/gpu-driver-demo}
 * builds and tests).
 */
class ShadedJarsIT {

  private static Result run(Path jar, String... arguments) throws Exception {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
        jar.toString()));
    command.addAll(List.of(arguments));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
    return new Result(process.exitValue(), output);
  }

  private record Result(int status, String output) {}

  @Test
  void theDriverJarLeavesOutTheTestMachineryAndPointsToTheDemoJar() throws Exception {
    Result demo = run(ShadedJars.DRIVER, "demo");

    assertThat(demo.status()).isEqualTo(2);
    assertThat(demo.output()).contains("run java -jar gpu-driver-demo.jar demo");
    try (ZipFile jar = new ZipFile(ShadedJars.DRIVER.toFile())) {
      assertThat(jar.stream().map(ZipEntry::getName)
          .filter(n -> n.startsWith("io/github/dra4j/testing/") || n.startsWith("io/vertx/")
              || n.startsWith("org/bouncycastle/") || n.startsWith("dev/cel/")
              || n.startsWith("io/github/dra4j/cel/")
              || n.startsWith("io/github/dra4j/examples/gpu/demo/")))
          .as("test machinery or the demo in the image's jar").isEmpty();
      assertThat(jar.stream().map(ZipEntry::getName)
          .filter(n -> n.startsWith("io/fabric8/kubernetes/api/model/gatewayapi/")
              || n.startsWith("io/fabric8/kubernetes/api/model/networking/")
              || n.startsWith("io/fabric8/kubernetes/api/model/apiextensions/")
              || n.startsWith("io/fabric8/kubernetes/api/model/storage/")))
          .as("fabric8 models of API groups the driver never uses").isEmpty();
      assertThat(jar.getEntry("io/fabric8/kubernetes/api/model/resource/v1/ResourceSlice.class"))
          .as("the models it uses").isNotNull();
    }
  }

  @Test
  void theJarAllowsNativeAccessSoNettyAndJnaLoadWithoutAWarningOnNewerJdks() throws Exception {
    try (JarFile file = new JarFile(ShadedJars.DRIVER.toFile())) {
      Attributes main = file.getManifest().getMainAttributes();
      assertThat(main.getValue("Enable-Native-Access")).isEqualTo("ALL-UNNAMED");
      assertThat(main.getValue("Main-Class")).isEqualTo(GpuDriverMain.class.getName());
    }
  }

  @Test
  void theJarPrintsItsCommands() throws Exception {
    Result help = run(ShadedJars.DRIVER, "--help");
    assertThat(help.status()).as(help.output()).isZero();
    assertThat(help.output()).contains("kubelet-plugin", "webhook", "demo");
  }
}
