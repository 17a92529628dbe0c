package io.github.dra4j.testing.readme;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.dra4j.core.metrics.MetricNames;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Keeps the README honest: every Java block in it is a region of a source file in this package
 * (marked {@code // README:begin <name>} ... {@code // README:end}), so it compiles and the tests
 * run it; every region is shown; the module table has one row per module of the build, by
 * artifactId with its directory where that differs, each naming the dra4j artifacts it uses
 * outside its tests as its pom declares them; and the metric list
 * names every meter of {@link MetricNames}.
 */
class ReadmeTest {

  private static final Path ROOT = Path.of("../..").toAbsolutePath().normalize();
  private static final Path SOURCES = Path.of("src/test/java/io/github/dra4j/testing/readme")
      .toAbsolutePath();
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
  void theModuleTableListsEveryModuleWithTheDra4jModulesItUses() throws Exception {
    Map<String, ModuleRow> table = moduleTable(readme());
    Map<String, String> directoryOf = new TreeMap<>();
    Map<String, List<String>> uses = new TreeMap<>();
    for (String module : modules(ROOT.resolve("pom.xml"))) {
      Document pom = parse(ROOT.resolve(module).resolve("pom.xml"));
      String artifact = text(pom.getDocumentElement(), "artifactId");
      assertThat(directoryOf.put(artifact, module)).as("artifactId %s in one module", artifact)
          .isNull();
      uses.put(artifact, dra4jDependencies(pom));
    }
    assertThat(table.keySet()).as("the module table's rows, against the reactor's artifactIds")
        .containsExactlyInAnyOrderElementsOf(uses.keySet());
    for (Map.Entry<String, ModuleRow> row : table.entrySet()) {
      String artifact = row.getKey();
      String directory = directoryOf.get(artifact);
      assertThat(row.getValue().directory())
          .as("the directory of %s, shown where it is not the artifactId", artifact)
          .isEqualTo(directory.equals(artifact) ? null : directory);
      assertThat(row.getValue().uses()).as("the dra4j artifacts %s uses (not in tests)", artifact)
          .containsExactlyInAnyOrderElementsOf(uses.get(artifact));
    }
  }

  /** A row of the README's module table: the module's directory (null if not shown), its uses. */
  private record ModuleRow(String directory, List<String> uses) {}

  /**
   * The rows of the README's module table: artifactId to its row. The first cell is
   * {@code `artifactId`}, followed by {@code (`directory/`)} where the module's directory has
   * another name; the "uses" cell lists artifactIds as {@code `artifactId`}, comma-separated, or
   * "-" for none.
   */
  private static Map<String, ModuleRow> moduleTable(String readme) {
    String section = readme.substring(readme.indexOf("## Modules"));
    String tableText = section.substring(section.indexOf("\n|"), section.indexOf("\n\n",
        section.indexOf("\n|")));
    Pattern row = Pattern.compile("^\\| `([^`]+)`(?: \\(`([^`]+)/`\\))? \\| ([^|]*) \\| .*\\|$");
    Map<String, ModuleRow> table = new TreeMap<>();
    for (String line : tableText.strip().split("\n", -1)) {
      Matcher m = row.matcher(line);
      if (!m.matches()) {
        continue; // the header and its rule
      }
      String cell = m.group(3).strip();
      List<String> uses = cell.equals("-") ? List.of() : Stream.of(cell.split(","))
          .map(u -> u.strip().replace("`", "")).sorted().toList();
      assertThat(table.put(m.group(1), new ModuleRow(m.group(2), uses)))
          .as("row %s appears once", m.group(1)).isNull();
    }
    return table;
  }

  /** The reactor's modules, those of the root's profiles included. */
  private static List<String> modules(Path rootPom) throws Exception {
    NodeList modules = parse(rootPom).getElementsByTagName("module");
    List<String> names = new ArrayList<>();
    for (int i = 0; i < modules.getLength(); i++) {
      names.add(modules.item(i).getTextContent().strip());
    }
    return names;
  }

  /** The io.github.dra4j artifacts a pom depends on outside tests and BOM imports. */
  private static List<String> dra4jDependencies(Document pom) {
    List<String> found = new ArrayList<>();
    Element project = pom.getDocumentElement();
    NodeList children = project.getChildNodes();
    for (int i = 0; i < children.getLength(); i++) {
      if (!(children.item(i) instanceof Element dependencies)
          || !dependencies.getTagName().equals("dependencies")) {
        continue;
      }
      NodeList list = dependencies.getElementsByTagName("dependency");
      for (int j = 0; j < list.getLength(); j++) {
        Element dependency = (Element) list.item(j);
        String scope = text(dependency, "scope");
        if ("io.github.dra4j".equals(text(dependency, "groupId"))
            && !"test".equals(scope) && !"import".equals(scope)) {
          found.add(text(dependency, "artifactId"));
        }
      }
    }
    return found;
  }

  private static Document parse(Path pom) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    return factory.newDocumentBuilder().parse(pom.toFile());
  }

  /** The text of {@code parent}'s direct child {@code name}, or null. */
  private static String text(Element parent, String name) {
    NodeList children = parent.getChildNodes();
    for (int i = 0; i < children.getLength(); i++) {
      if (children.item(i) instanceof Element child && child.getTagName().equals(name)) {
        return child.getTextContent().strip();
      }
    }
    return null;
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
