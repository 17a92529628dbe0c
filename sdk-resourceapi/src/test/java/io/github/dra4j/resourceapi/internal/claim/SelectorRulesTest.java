package io.github.dra4j.resourceapi.internal.claim;

import static io.github.dra4j.resourceapi.ExpectedErrors.assertErrors;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.github.dra4j.resourceapi.FeatureGates;
import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.internal.field.FieldPath;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Selectors and their CEL expressions, as requests and DeviceClasses have them. */
class SelectorRulesTest {

  private static final FeatureGates GATES = FeatureGates.kubernetes136();
  private static final FieldPath PATH = FieldPath.root("spec", "selectors");
  private static final int MAX = 10 * 1024;

  static Stream<Arguments> cases() {
    String filler = "device.driver == \"\"";
    String exactlyMax = filler.replace("\"\"", "\"" + "x".repeat(MAX - filler.length()) + "\"");
    String tooLong = filler.replace("\"\"", "\"" + "x".repeat(MAX - filler.length() + 1) + "\"");
    // 'é' takes two bytes: the limit counts bytes, not characters.
    String tooLongInBytes = filler.replace("\"\"",
        "\"" + "é".repeat((MAX - filler.length()) / 2 + 1) + "\"");
    return Stream.of(
        Arguments.of("a driver comparison", List.of("device.driver == \"dra.example.com\""),
            List.of()),
        Arguments.of("an attribute lookup", List.of(
            "device.attributes[\"dra.example.com\"].model == \"a100\""), List.of()),
        Arguments.of("a capacity comparison", List.of(
            "device.capacity[\"dra.example.com\"].memory.compareTo(quantity(\"1Gi\")) >= 0"),
            List.of()),
        Arguments.of("exactly 10 KiB", List.of(exactlyMax), List.of()),
        Arguments.of("32 selectors", repeat(32, "true"), List.of()),
        Arguments.of("one byte over 10 KiB", List.of("true", tooLong),
            List.of("TooLong spec.selectors[1].cel.expression")),
        Arguments.of("over 10 KiB in bytes, not in characters", List.of(tooLongInBytes),
            List.of("TooLong spec.selectors[0].cel.expression")),
        Arguments.of("33 selectors", repeat(33, "true"), List.of("TooMany spec.selectors")),
        Arguments.of("an undeclared variable", List.of("noSuchVar"),
            List.of("Invalid spec.selectors[0].cel.expression")),
        Arguments.of("a syntax error", List.of("device.driver =="),
            List.of("Invalid spec.selectors[0].cel.expression")),
        Arguments.of("a map indexed by bool", List.of("device.attributes[true].someBoolean"),
            List.of("Invalid spec.selectors[0].cel.expression")),
        Arguments.of("not a bool", List.of("1 + 1"),
            List.of("Invalid spec.selectors[0].cel.expression")),
        Arguments.of("an empty expression", List.of(""),
            List.of("Invalid spec.selectors[0].cel.expression")),
        Arguments.of("several bad ones", List.of("true", "noSuchVar", "true", "'x'"),
            List.of("Invalid spec.selectors[1].cel.expression",
                "Invalid spec.selectors[3].cel.expression")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void selectors(String name, List<String> expressions, List<String> expected) {
    assertErrors(SelectorRules.selectors(selectors(expressions), PATH, GATES, false),
        expected.toArray(String[]::new));
  }

  @Test
  void missingCelIsRequired() {
    List<DeviceSelector> selectors = new ArrayList<>(selectors(List.of("true")));
    selectors.add(new DeviceSelector());
    List<FieldError> errors = SelectorRules.selectors(selectors, PATH, GATES, false);
    assertThat(errors).extracting(FieldError::toString)
        .containsExactly("spec.selectors[1].cel: Required value");
  }

  @Test
  void compileErrorsReadAsTheServers() {
    assertThat(messages("noSuchVar")).containsExactly(
        "spec.selectors[0].cel.expression: Invalid value: \"noSuchVar\": compilation failed: "
            + "ERROR: <input>:1:1: undeclared reference to 'noSuchVar' (in container '')\n"
            + " | noSuchVar\n | ^");
    assertThat(messages("device.attributes[true].someBoolean")).containsExactly(
        "spec.selectors[0].cel.expression: Invalid value: "
            + "\"device.attributes[true].someBoolean\": compilation failed: ERROR: <input>:1:18:"
            + " found no matching overload for '_[_]' applied to"
            + " '(map(string, map(string, any)), bool)'\n"
            + " | device.attributes[true].someBoolean\n"
            + " | .................^");
    assertThat(messages("1 + 1")).containsExactly("spec.selectors[0].cel.expression: Invalid "
        + "value: \"1 + 1\": must evaluate to bool or the unknown type, not int");
  }

  @Test
  void tooLongIsNotCompiledAndReadsAsTheServers() {
    String tooLong = "noSuchVar || " + "x".repeat(MAX);
    assertThat(messages(tooLong)).containsExactly(
        "spec.selectors[0].cel.expression: Too long: may not be more than 10240 bytes");
  }

  @Test
  void consumableCapacityDecidesAllowMultipleAllocations() {
    String expression = "device.allowMultipleAllocations";
    FeatureGates off = GATES.with(FeatureGates.DRA_CONSUMABLE_CAPACITY, false);
    FeatureGates on = GATES.with(FeatureGates.DRA_CONSUMABLE_CAPACITY, true);
    assertErrors(SelectorRules.selectors(selectors(List.of(expression)), PATH, off, false),
        "Invalid spec.selectors[0].cel.expression");
    assertErrors(SelectorRules.selectors(selectors(List.of(expression)), PATH, on, false));
    // A stored selector compiles in the stored-expressions environment, which has everything.
    assertErrors(SelectorRules.selectors(selectors(List.of(expression)), PATH, off, true));
  }

  @Test
  void storedSelectorsAreStillCheckedForLengthAndCompileErrors() {
    assertErrors(SelectorRules.selectors(selectors(List.of("noSuchVar", "x".repeat(MAX + 1))),
        PATH, GATES, true),
        "Invalid spec.selectors[0].cel.expression", "TooLong spec.selectors[1].cel.expression");
  }

  @Test
  void tooComplexIsForbidden() {
    String nested = "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]";
    String expression = nested + ".all(x, " + nested + ".all(y, " + nested + ".all(z, " + nested
        + ".all(z2, " + nested + ".all(z3, " + nested + ".all(z4, " + nested
        + ".all(z5, int('1'.find('[0-9]*')) < 100)))))))";
    assertThat(messages(expression)).containsExactly(
        "spec.selectors[0].cel.expression: Forbidden: too complex, exceeds cost limit");
  }

  private static List<String> messages(String expression) {
    return SelectorRules.selectors(selectors(List.of(expression)), PATH, GATES, false).stream()
        .map(FieldError::toString).toList();
  }

  private static List<DeviceSelector> selectors(List<String> expressions) {
    return expressions.stream()
        .map(e -> Fixtures.read("{cel:{expression:" + quote(e) + "}}", DeviceSelector.class))
        .toList();
  }

  private static List<String> repeat(int count, String expression) {
    return java.util.Collections.nCopies(count, expression);
  }

  private static String quote(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
