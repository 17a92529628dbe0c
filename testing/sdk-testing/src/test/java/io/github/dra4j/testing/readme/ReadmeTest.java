package io.github.dra4j.testing.readme;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.dra4j.core.metrics.MetricNames;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps the README honest: every Java block in it is a region of a source file in this package
 * (marked {@code // README:begin <name>} ... {@code // README:end}), so it compiles and the tests
 * run it; every region is shown; every module is in the module table, and the metric list names
 * every meter of {@link MetricNames}.
 */
class ReadmeTest {

  private static final Path ROOT = Path.of("../..").toAbsolutePath().normalize();
  private static final Path SOURCES =
      Path.of("src/test/java/io/github/dra4j/testing/readme").toAbsolutePath();
  private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);
  private static final Pattern REGION = Pattern.compile(
      "// README:begin (\\S+)\\n(.*?)// README:end", Pattern.DOTALL);

  private static String readme() throws IOException {
    return Files.readString(ROOT.resolve("README.md"));
  }

  private static List<String> regions() throws IOException {
    List<String> regions = new ArrayList<>();
    try (Stream<Path> files = Files.list(SOURCES)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
        Matcher m = REGION.matcher(Files.readString(file));
        while (m.find()) {
          regions.add(m.group(2).strip());
        }
      }
    }
    return regions;
  }

  @Test
  void everyJavaBlockOfTheReadmeIsCompiledSource() throws IOException {
    List<String> regions = regions();
    Matcher block = JAVA_BLOCK.matcher(readme());
    int blocks = 0;
    while (block.find()) {
      blocks++;
      assertThat(regions).as("README block not found in %s", SOURCES)
          .contains(block.group(1).strip());
    }
    assertThat(blocks).isEqualTo(regions.size());
  }

  @Test
  void theModuleTableListsEveryModule() throws IOException {
    String pom = Files.readString(ROOT.resolve("pom.xml"));
    Matcher module = Pattern.compile("<module>([^<]+)</module>").matcher(pom);
    String readme = readme();
    while (module.find()) {
      assertThat(readme).as("module table").contains("| `" + module.group(1) + "` |");
    }
  }

  @Test
  void theMetricListNamesEveryMeterInPrometheusForm() throws IOException {
    String readme = readme();
    for (String name : MetricNames.ALL) {
      String prometheus = name.replace('.', '_');
      assertThat(readme).as("metric %s", name).containsPattern(
          "`" + Pattern.quote(prometheus) + "(_seconds|_total)?`");
    }
  }
}
