package io.github.dra4j.testing.readme;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.dra4j.cdi.spec.CdiVersion;
import io.github.dra4j.kubelet.wire.ServiceNames;
import io.github.dra4j.resourceslice.internal.client.SliceVersion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps the README's compatibility matrix honest: every row names a test, every linked test or
 * script exists (a Java test as the class its link names), and the versions listed are the ones
 * the code declares: the {@code resource.k8s.io} versions the slice and claim clients negotiate,
 * the kubelet service identifiers the plugin advertises, the JDK the build compiles for and the
 * modules CI runs on JDK 25, and the CDI spec versions the writer can stamp.
 */
class CompatibilityMatrixTest {

  private static final Path ROOT = Path.of("../..").toAbsolutePath().normalize();
  private static final Pattern LINK = Pattern.compile("\\[`?([^`\\]]+)`?\\]\\(([^)#]+)\\)");
  private static final Pattern API_VERSION = Pattern.compile("`resource\\.k8s\\.io/(v\\w+)`");
  private static final Pattern BACKTICKED = Pattern.compile("`([^`]+)`");

  /** The README's "Compatibility" section, up to the next section of the same level. */
  private static String section() throws IOException {
    String readme = Files.readString(ROOT.resolve("README.md"));
    int start = readme.indexOf("\n## Compatibility\n");
    assertThat(start).as("README.md has a \"## Compatibility\" section").isNotNegative();
    int end = readme.indexOf("\n## ", start + 1);
    return readme.substring(start, end < 0 ? readme.length() : end);
  }

  /** The body rows of the section's tables (header rows and rules left out), as cells. */
  private static List<List<String>> rows() throws IOException {
    List<List<String>> rows = new ArrayList<>();
    boolean header = true;
    for (String line : section().split("\n", -1)) {
      if (!line.startsWith("|")) {
        header = true;
        continue;
      }
      if (line.startsWith("|---")) {
        header = false;
        continue;
      }
      if (!header) {
        rows.add(Arrays.stream(line.substring(1, line.length() - 1).split("\\|", -1))
            .map(String::strip).toList());
      }
    }
    return rows;
  }

  /** The row whose first cell starts with {@code first}. */
  private static List<String> row(String first) throws IOException {
    return rows().stream().filter(r -> r.get(0).startsWith(first)).findFirst()
        .orElseThrow(() -> new AssertionError("no matrix row starts with " + first));
  }

  private static List<String> matches(Pattern pattern, String text) {
    List<String> found = new ArrayList<>();
    Matcher m = pattern.matcher(text);
    while (m.find()) {
      found.add(m.group(1));
    }
    return found;
  }

  @Test
  void everyRowNamesATestAndEveryLinkedTestExists() throws IOException {
    List<List<String>> rows = rows();
    assertThat(rows).as("the matrix's rows").hasSizeGreaterThanOrEqualTo(10);
    for (List<String> row : rows) {
      assertThat(LINK.matcher(row.get(row.size() - 1)).find())
          .as("the last cell of row \"%s\" links the test behind it", row.get(0)).isTrue();
    }
    Matcher link = LINK.matcher(section());
    int links = 0;
    while (link.find()) {
      links++;
      String name = link.group(1);
      Path target = ROOT.resolve(link.group(2));
      assertThat(target).as("the link of %s", name).isRegularFile();
      if (target.toString().endsWith(".java")) {
        assertThat(target.getFileName().toString()).as("the file %s links", name)
            .isEqualTo(name + ".java");
        assertThat(target.toString()).as("%s is a test", name).contains("/src/test/java/");
        assertThat(Files.readString(target)).as("%s declares its class", target)
            .containsPattern("\\bclass " + Pattern.quote(name) + "\\b");
      }
    }
    assertThat(links).isGreaterThanOrEqualTo(rows.size());
  }

  @Test
  void theSliceVersionsAreTheOnesTheClientNegotiatesInItsOrder() throws IOException {
    List<String> expected = new ArrayList<>();
    SliceVersion version = SliceVersion.V1;
    do {
      expected.add(version.apiVersion().substring("resource.k8s.io/".length()));
      version = version.next();
    } while (version != SliceVersion.V1);
    assertThat(matches(API_VERSION, row("ResourceSlices").get(1))).as("the ResourceSlice row")
        .containsExactlyElementsOf(expected);
  }

  @Test
  void theClaimVersionsAreTheOnesThePluginTriesInItsOrder() throws Exception {
    // ClaimVersion is the plugin's internal, package-private order of versions to try.
    Object[] versions = Class
        .forName("io.github.dra4j.kubeletplugin.internal.claims.ClaimVersion")
        .getEnumConstants();
    List<String> expected = Stream.of(versions)
        .map(v -> ((Enum<?>) v).name().toLowerCase(Locale.ROOT)).toList();
    assertThat(expected).containsExactly("v1", "v1beta2", "v1beta1");
    assertThat(matches(API_VERSION, row("ResourceClaims").get(1))).as("the ResourceClaim row")
        .containsExactlyElementsOf(expected);
  }

  @Test
  void theKubeletRowsNameTheIdentifiersThePluginAdvertises() throws IOException {
    assertThat(matches(BACKTICKED, row("kubelet DRA").get(1))).as("the DRA service row")
        .containsExactly(ServiceNames.DRA_V1, ServiceNames.DRA_V1BETA1);
    assertThat(matches(BACKTICKED, row("kubelet device health").get(1)))
        .filteredOn(name -> name.endsWith(".DRAResourceHealth")).as("the health row")
        .containsExactly(ServiceNames.HEALTH_V1, ServiceNames.HEALTH_V1ALPHA1);
    assertThat(row("kubelet plugin registration").get(1))
        .contains("`" + ServiceNames.PLUGIN_TYPE + "`");
  }

  @Test
  void theJdkRowsAreTheReleaseTheBuildTargetsAndTheModulesCiRunsOnJdk25() throws IOException {
    List<String> jdks = rows().stream().map(r -> r.get(0)).filter(c -> c.matches("\\d+"))
        .toList();
    Matcher release = Pattern.compile("<maven\\.compiler\\.release>(\\d+)<")
        .matcher(Files.readString(ROOT.resolve("pom.xml")));
    assertThat(release.find()).isTrue();
    assertThat(jdks).containsExactly(release.group(1), "25");

    String script = Files.readString(ROOT.resolve(".ci/jdk25-tests"));
    Matcher modules = Pattern.compile("\nmodules=\\(([^)]*)\\)").matcher(script);
    assertThat(modules.find()).as(".ci/jdk25-tests names its modules").isTrue();
    List<String> inScript = List.of(modules.group(1).strip().split("\\s+"));
    List<String> inReadme = matches(BACKTICKED, row("25").get(1)).stream()
        .filter(inScript::contains).toList();
    assertThat(inReadme).as("the modules the JDK 25 row names, as .ci/jdk25-tests runs them")
        .containsExactlyElementsOf(inScript);
    assertThat(Files.readString(ROOT.resolve(".ci/run"))).as(".ci/run runs the JDK 25 tests")
        .contains("bash .ci/jdk25-tests");
  }

  @Test
  void theCdiRowsAreEveryVersionTheWriterCanStampWithTheLibraryTagThatKnowsIt()
      throws IOException {
    List<String> expected = Stream.of(CdiVersion.values())
        .filter(v -> v.isAtLeast(CdiVersion.EARLIEST_ACCEPTED)).map(CdiVersion::text).toList();
    List<List<String>> cdiRows = rows().stream().filter(r -> r.get(0).matches("\\d+\\.\\d+\\.\\d+"))
        .toList();
    assertThat(cdiRows).extracting(r -> r.get(0)).as("the CDI rows")
        .containsExactlyElementsOf(expected);
    assertThat(expected).last().isEqualTo(CdiVersion.LATEST.text());
    for (List<String> row : cdiRows) {
      assertThat(row.get(2)).as("the library tag of CDI %s", row.get(0))
          .isEqualTo("v" + row.get(0) + " or later");
    }
  }
}
