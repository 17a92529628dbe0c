package io.github.dra4j.cel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Forty numbered selector expressions and some one-liners, covering attribute and capacity
 * access, missing keys, presence tests, optional values, type errors, versions, quantities and
 * string functions, evaluated against {@link ExampleDevice}. Expected results (true/false, or the
 * compile-time ({@code CT}) or runtime ({@code RT}) error) are the ones Kubernetes produces.
 */
class DraCelExamplesTest {

  private static DeviceSelectorEnvironment environment;
  private static SelectorDevice device;

  @BeforeAll
  static void buildEnvironment() {
    environment = DeviceSelectorEnvironment.stored();
    device = ExampleDevice.view();
  }

  static Stream<Arguments> examples() {
    return Stream.of(
        ex(1, "device.driver == \"gpu.example.com\"", "true"),
        ex(2, "A.model == \"A100-SXM4-80GB\"", "true"),
        ex(3, "device.attributes[\"numa.example.com\"].node == 1", "true"),
        ex(4, "A[\"numa.example.com/node\"] == 1", "RT no such key: numa.example.com/node"),
        ex(5, "A.vendor == \"nvidia\"", "RT no such key: vendor"),
        ex(6, "device.attributes[\"other.example.com\"].vendor == \"nvidia\"",
            "RT no such key: vendor"),
        ex(7, "device.attributes[\"other.example.com\"].size() == 0", "true"),
        ex(8, "\"other.example.com\" in device.attributes", "false"),
        ex(9, "has(device.attributes.other)", "true"),
        ex(10, "has(A.vendor)", "false"),
        ex(11, "A.?vendor.orValue(\"none\") == \"none\"", "true"),
        ex(12, "\"vendor\" in " + ExampleDevice.A + " && A.vendor == \"nvidia\"", "false"),
        ex(13, "A.index == \"0\"", "false"),
        ex(14, "A.model > 1", "RT no such overload"),
        ex(15, "A.index < 0.5", "true"),
        ex(16, "A.driverVersion == \"550.54.15\"", "RT no such overload"),
        ex(17, "A.model", "RT CEL result of type string could not be converted to bool:"
            + " unsupported native conversion from string to 'bool'"),
        ex(18, "1", "CT must evaluate to bool or the unknown type, not int"),
        ex(19, "C.memory.isGreaterThan(quantity(\"80G\"))", "true"),
        ex(20, "C.memory.compareTo(quantity(\"81920Mi\")) == 0", "true"),
        ex(21, "C.memory.isLessThan(quantity(\"0.08Ti\"))", "true"),
        ex(22, "C.sms.asInteger() >= 100", "true"),
        ex(23, "device.capacity[\"numa.example.com\"].bandwidth.isGreaterThan(quantity(\"1T\"))",
            "true"),
        ex(24, "C.memory.sub(quantity(\"16Gi\")) == quantity(\"64Gi\")", "true"),
        ex(25, "sign(C.sms) == 1", "true"),
        ex(26, "C.sms.sign() == 1",
            "CT found no matching overload for 'sign' applied to 'kubernetes.Quantity.()'"),
        ex(27, "C.memory > quantity(\"1Gi\")", "CT found no matching overload for '_>_'"),
        ex(28, "quantity(\"200K\").isInteger()", "RT unable to parse quantity's suffix"),
        ex(29, "A.driverVersion.isGreaterThan(semver(\"535.0.0\"))", "true"),
        ex(30, "A.cudaVersion.isLessThan(semver(\"12.4.0\"))", "true"),
        ex(31, "A.cudaVersion == semver(\"12.4.0-rc.1\")", "true"),
        ex(32, "A.cudaVersion.compareTo(semver(\"v12.4\", true)) == -1", "true"),
        ex(33, "semver(\"v12.4.0\").major() == 12",
            "RT Invalid character(s) found in major number \"v12\""),
        ex(34, "A.model.matches(\"^A100-.*-80GB$\")", "true"),
        ex(35, "A.model.lowerAscii().split(\"-\")[0] == \"a100\"", "true"),
        ex(36, "A.model.find(\"[0-9]+GB\") == \"80GB\"", "true"),
        ex(37, "cel.bind(g, A, g.mig && g.index == 0)", "true"),
        ex(38, "A.exists(k, v, k == \"mig\" && v == true)", "true"),
        ex(39, "A.model.reverse() == \"BG08-4MXS-001A\"",
            "CT found no matching overload for '_==_' applied to '(list(dyn), string)'"),
        ex(40, "device.allowMultipleAllocations == false", "true"));
  }

  static Stream<Arguments> oneLiners() {
    return Stream.of(
        Arguments.of("quantity(\"1Pi\").isInteger()", "false"),
        Arguments.of("quantity(\"1e3\") == quantity(\"1k\")", "true"),
        Arguments.of("isSemver(\"1.0\")", "false"),
        Arguments.of("semver(\"1.0.0-2\").isLessThan(semver(\"1.0.0-10\"))", "true"),
        Arguments.of("\"%d GiB\".format([80]) == \"80 GiB\"", "true"),
        Arguments.of("[].min() == 0", "RT min called on empty list"),
        Arguments.of("9223372036854775807 + 1 > 0", "RT integer overflow"));
  }

  private static Arguments ex(int number, String expression, String expected) {
    return Arguments.of(number, expression, expected);
  }

  @ParameterizedTest(name = "example {0}: {1} -> {2}")
  @MethodSource("examples")
  void example(int number, String expression, String expected) {
    check(ExampleDevice.expand(expression), expected);
  }

  @ParameterizedTest(name = "one-liner: {0} -> {1}")
  @MethodSource("oneLiners")
  void additionalOneLiner(String expression, String expected) {
    check(expression, expected);
  }

  private static void check(String expression, String expected) {
    if (expected.startsWith("CT ")) {
      assertThatThrownBy(() -> environment.compile(expression))
          .isInstanceOf(SelectorCompileException.class)
          .hasMessageContaining(expected.substring(3));
      return;
    }
    SelectorResult result;
    try {
      result = environment.compile(expression).evaluate(device);
    } catch (SelectorCompileException e) {
      throw new AssertionError("expected to compile: " + expression, e);
    }
    if (expected.startsWith("RT ")) {
      assertThat(result).isInstanceOf(SelectorResult.Failure.class);
      assertThat(((SelectorResult.Failure) result).message()).contains(expected.substring(3));
    } else {
      assertThat(result)
          .isEqualTo(expected.equals("true") ? SelectorResult.MATCH : SelectorResult.NO_MATCH);
    }
  }
}
