package io.github.dra4j.examples.gpu.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The kubelet plugin's JVM as the chart starts it: the image ships its AOT cache, made at image
 * build from the very jar and runtime it runs with, so the pod writes no class archive of its own
 * (one written under the plugin's host directory went stale at the first image upgrade, printed
 * an error at every start after it and pushed the container to its memory limit as it was
 * written); and the JVM compiles its hot path with C2.
 */
class KubeletPluginJvmChartTest {

  private static final List<String> ARCHIVE_WRITERS = List.of("AutoCreateSharedArchive",
      "SharedArchiveFile", "ArchiveClassesAtExit", "AOTCacheOutput", "AOTMode=record",
      "AOTConfiguration", "DumpSharedSpaces", "-Xshare:dump");

  @Test
  void thePodWritesNoClassArchiveAndCompilesWithC2() {
    DaemonSet daemonSet = Helm.require().template().one(DaemonSet.class);
    Container plugin = daemonSet.getSpec().getTemplate().getSpec().getContainers().get(0);

    List<String> jvm = new ArrayList<>();
    plugin.getEnv().stream().filter(e -> e.getName().startsWith("J"))
        .map(EnvVar::getValue).forEach(jvm::add);
    if (plugin.getArgs() != null) {
      jvm.addAll(plugin.getArgs());
    }
    assertThat(plugin.getEnv()).extracting(EnvVar::getName).as("the plugin's environment")
        .contains("JAVA_TOOL_OPTIONS").doesNotContain("JDK_JAVA_OPTIONS");
    assertThat(String.join(" ", jvm)).as("JVM options and arguments")
        .doesNotContain(ARCHIVE_WRITERS.toArray(String[]::new))
        .doesNotContain("TieredStopAtLevel", "-Xint");
  }

  @Test
  void theRemovedArchiveSettingIsRefusedNamingIt() {
    Helm.Result result = Helm.require().templateResult(Helm.NAMESPACE, "--set",
        "kubeletPlugin.classDataSharing=true");

    assertThat(result.exitCode()).as(result.describe()).isNotZero();
    assertThat(result.stdout() + result.stderr()).as(result.describe())
        .contains("'classDataSharing' not allowed");
  }

  @Test
  void theChartsOptionsAreAllOptionsThisJdkAccepts() throws Exception {
    // On JDK 25 (the image's) every option must be known: a typo would stop the pod's JVM.
    String options = (String) ChartFiles.value("kubeletPlugin.jvmOptions");
    assertThat(options).contains("-XX:+UseCompactObjectHeaders")
        .as("the image's cache is made with compact object headers; the JVM refuses a cache"
            + " whose setting differs");
    Path java = jdk25().resolve("bin/java");
    List<String> command = new ArrayList<>(List.of(java.toString()));
    command.addAll(List.of(options.trim().split("\\s+")));
    command.add("-version");
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor()).as(output).isZero();
    assertThat(output).as("no warning").doesNotContainIgnoringCase("warning")
        .doesNotContain("Ignoring option");
  }

  /** A JDK 25 or newer: the test's own, {@code -Djdk25.home}, or Temurin 25 where Debian has it. */
  private static Path jdk25() {
    Optional<Path> found = Stream.of(
        Runtime.version().feature() >= 25 ? System.getProperty("java.home") : null,
        System.getProperty("jdk25.home"), "/usr/lib/jvm/temurin-25-jdk-amd64")
        .filter(home -> home != null && !home.isBlank()).map(Path::of)
        .filter(home -> Files.isExecutable(home.resolve("bin/java"))).findFirst();
    assumeTrue(found.isPresent(), "no JDK 25 (the image's) to check the options with; set"
        + " -Djdk25.home");
    return found.get();
  }
}
