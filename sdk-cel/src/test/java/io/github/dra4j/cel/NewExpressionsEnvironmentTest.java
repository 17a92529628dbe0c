package io.github.dra4j.cel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What an API server accepts in a newly written selector, per version and feature gate: each
 * option is rejected by the last release before it and accepted from the first release after the
 * release that introduced it (the default compatibility version is the previous minor release).
 */
class NewExpressionsEnvironmentTest {

  private static DeviceSelectorEnvironment server(NewExpressionOptions options) {
    return DeviceSelectorEnvironment.newExpressions(options);
  }

  private static DeviceSelectorEnvironment server(String version) {
    return server(NewExpressionOptions.forServer(KubernetesVersion.parse(version)));
  }

  private static NewExpressionOptions.Builder builder(String version) {
    return NewExpressionOptions.builder(KubernetesVersion.parse(version));
  }

  /** A server of one release that validates new expressions for an older compatibility version. */
  private static DeviceSelectorEnvironment emulating(String version, int compatibilityMinor) {
    return server(builder(version)
        .compatibilityVersion(KubernetesVersion.of(1, compatibilityMinor)).build());
  }

  @ParameterizedTest(name = "{0}: rejected by {2}, accepted by {3}")
  @CsvSource(delimiter = '|', textBlock = """
      lists extension v3 sort   | [3, 1, 2].sort() == [1, 2, 3]                 | 1.34 | 1.35 | undeclared reference to 'sort'
      lists extension v3 distinct | [1, 1].distinct() == [1]                    | 1.34 | 1.35 | undeclared reference to 'distinct'
      lists extension v3 sortBy | ["bb", "a"].sortBy(s, s.size()) == ["a", "bb"] | 1.34 | 1.35 | undeclared reference to 'sortBy'
      semver normalize          | semver("v1.2", true).minor() == 2             | 1.33 | 1.34 | found no matching overload for 'semver'
      isSemver normalize        | isSemver("v1.2", true)                        | 1.33 | 1.34 | found no matching overload for 'isSemver'
      two-variable all          | [1, 2].all(i, v, v > i)                       | 1.32 | 1.33 | undeclared reference to 'all'
      transformMap              | {"a": 1}.transformMap(k, v, v + 1) == {"a": 2} | 1.32 | 1.33 | undeclared reference to 'transformMap'
      format library            | format.dns1123Label().validate("ok") == optional.none() | 1.31 | 1.32 | undeclared reference to 'format'
      """)
  void optionsAreOfferedFromTheReleaseAfterTheyWereIntroduced(
      String feature, String expression, String rejecting, String accepting, String error)
      throws Exception {
    assertThatThrownBy(() -> server(rejecting).compile(expression))
        .isInstanceOf(SelectorCompileException.class)
        .hasMessageContaining(error);
    assertThat(server(accepting).compile(expression).evaluate(ExampleDevice.view()).matches())
        .isTrue();
    assertThat(DeviceSelectorEnvironment.stored().compile(expression)).isNotNull();
  }

  @Test
  void ipAndCidrCameWithCompatibilityVersion130() throws Exception {
    String expression = "ip(\"10.0.0.1\").family() == 4 && cidr(\"10.0.0.0/8\").prefixLength() == 8";
    assertThat(server("1.31").compile(expression).evaluate(ExampleDevice.view()).matches())
        .isTrue();
    assertThatThrownBy(() -> emulating("1.31", 29).compile(expression))
        .hasMessageContaining("undeclared reference to 'ip'");
  }

  @Test
  void aLowerCompatibilityVersionRejectsWhatTheServerReleaseWouldOtherwiseAllow() {
    assertThatThrownBy(() -> emulating("1.35", 33).compile("[2, 1].sort() == [1, 2]"))
        .hasMessageContaining("undeclared reference to 'sort'");
  }

  @Test
  void theDraAdditionsAreTagged131SoA131ServerAlwaysHasThem() throws Exception {
    String expression = "cel.bind(d, device.driver, d == \"gpu.example.com\")"
        + " && " + ExampleDevice.A + ".driverVersion.isGreaterThan(semver(\"1.0.0\"))";
    assertThat(server("1.31").compile(expression).evaluate(ExampleDevice.view()).matches())
        .isTrue();
    assertThatThrownBy(() -> emulating("1.32", 30).compile("device.driver == \"x\""))
        .hasMessageContaining("undeclared reference to 'device'");
  }

  @Test
  void allowMultipleAllocationsNeedsTheConsumableCapacityGate() throws Exception {
    String expression = "!device.allowMultipleAllocations";
    assertThatThrownBy(() -> server("1.35").compile(expression))
        .hasMessageContaining("undefined field 'allowMultipleAllocations'");
    assertThat(server(builder("1.34").consumableCapacity(true).build()).compile(expression)
        .evaluate(ExampleDevice.view()).matches()).isTrue();
    assertThat(server("1.36").compile(expression).evaluate(ExampleDevice.view()).matches())
        .isTrue();
    assertThatThrownBy(() -> server(builder("1.36").consumableCapacity(false).build())
        .compile(expression))
        .hasMessageContaining("undefined field 'allowMultipleAllocations'");
  }

  @Test
  void listAttributesAndIncludesNeedTheListTypeAttributesGate() throws Exception {
    String macro = ExampleDevice.A + ".index.all(i, i >= 0)";
    String includes = ExampleDevice.A + ".model.includes(\"A100-SXM4-80GB\")";
    DeviceSelectorEnvironment gateOff = server("1.36");
    assertThatThrownBy(() -> gateOff.compile("device.driver == \"x\" && " + macro))
        .hasMessageContaining("expression of type 'any' cannot be range of a comprehension"
            + " (must be list, map, or dynamic)");
    assertThatThrownBy(() -> gateOff.compile(includes))
        .hasMessageContaining("undeclared reference to 'includes'");
    DeviceSelectorEnvironment gateOn = server(builder("1.36").listTypeAttributes(true).build());
    assertThat(gateOn.compile(includes).evaluate(ExampleDevice.view()).matches()).isTrue();
    assertThat(gateOn.compile(macro)).isNotNull();
  }

  @Test
  void scalarAttributesWorkTheSameWithoutTheListGate() throws Exception {
    DeviceSelectorEnvironment gateOff = server("1.35");
    for (String expression : new String[] {
        ExampleDevice.A + ".model == \"A100-SXM4-80GB\" && " + ExampleDevice.A + ".index < 0.5",
        ExampleDevice.A + ".mig",
        ExampleDevice.A + ".model.startsWith(\"A100\")",
        ExampleDevice.A + ".?vendor.orValue(\"none\") == \"none\"",
        ExampleDevice.A + ".exists(name, name == \"mig\")"}) {
      assertThat(gateOff.compile(expression).evaluate(ExampleDevice.view()).matches())
          .as(expression).isTrue();
    }
  }

  @Test
  void theStoredEnvironmentIsSharedAndOffersEverything() throws Exception {
    DeviceSelectorEnvironment stored = DeviceSelectorEnvironment.stored();
    assertThat(DeviceSelectorEnvironment.stored()).isSameAs(stored);
    assertThat(stored.newExpressionOptions()).isEmpty();
    assertThat(stored.compile("device.allowMultipleAllocations || "
        + ExampleDevice.A + ".model.includes(\"x\") || [1].sort() == [1]")).isNotNull();
    assertThat(server("1.34").newExpressionOptions())
        .hasValue(NewExpressionOptions.forServer(KubernetesVersion.of(1, 34)));
  }

  @Test
  void describesWhichEnvironmentItIs() {
    assertThat(DeviceSelectorEnvironment.stored())
        .hasToString("DeviceSelectorEnvironment[stored expressions]");
    assertThat(server("1.34")).hasToString("DeviceSelectorEnvironment[new expressions of a"
        + " Kubernetes 1.34 API server (compatibility version 1.33, DRAConsumableCapacity off,"
        + " DRAListTypeAttributes off)]");
  }
}
