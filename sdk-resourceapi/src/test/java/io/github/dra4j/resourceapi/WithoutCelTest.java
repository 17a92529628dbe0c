package io.github.dra4j.resourceapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/**
 * dra4j-cel is an optional dependency: a driver that only writes slices and claim status does not
 * carry a CEL compiler. Run in a real JVM whose class path lacks dra4j-cel, slices are still
 * checked in full and a device selector is refused with an error that names the artifact to add,
 * never passed unchecked and never a {@link NoClassDefFoundError}.
 */
class WithoutCelTest {

  private static final String CEL_CLASS = "io/github/dra4j/cel/DeviceSelectorEnvironment.class";

  @Test
  void aSelectorIsRefusedNamingTheArtifactAndASliceIsStillChecked() throws Exception {
    List<String> all = Arrays.asList(System.getProperty("java.class.path")
        .split(File.pathSeparator));
    List<String> withoutCel = all.stream().filter(entry -> !holdsCel(entry)).toList();
    assertThat(withoutCel).as("the test class path holds dra4j-cel").hasSizeLessThan(all.size());

    String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process process = new ProcessBuilder(javaBin, "-cp",
        String.join(File.pathSeparator, withoutCel), WithoutCelMain.class.getName())
        .redirectErrorStream(true).start();
    String output;
    try (var in = process.getInputStream()) {
      output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();

    assertThat(process.exitValue()).as(output).isZero();
    List<String> lines = output.lines()
        .filter(l -> l.startsWith("claim ") || l.startsWith("slice "))
        .collect(Collectors.toList());
    assertThat(lines).as(output).hasSize(2);
    assertThat(lines.get(0)).startsWith("claim accepted=false")
        .contains("spec.devices.requests[0].exactly.selectors[0].cel.expression: Internal error")
        .contains("add the dependency io.github.dra4j:dra4j-cel");
    assertThat(lines.get(1)).isEqualTo("slice accepted=true errors=[]");
  }

  /** Whether a class path entry (a directory or a jar) holds dra4j-cel's classes. */
  private static boolean holdsCel(String entry) {
    Path path = Path.of(entry);
    if (Files.isDirectory(path)) {
      return Files.exists(path.resolve(CEL_CLASS));
    }
    try (ZipFile jar = new ZipFile(path.toFile())) {
      return jar.getEntry(CEL_CLASS) != null;
    } catch (IOException e) {
      return false;
    }
  }
}
