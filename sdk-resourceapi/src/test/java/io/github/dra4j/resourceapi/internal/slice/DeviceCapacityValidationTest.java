package io.github.dra4j.resourceapi.internal.slice;

import static io.github.dra4j.resourceapi.internal.slice.ResourceSliceValidationTest.strings;
import static io.github.dra4j.resourceapi.internal.slice.SliceFixtures.GATES;
import static io.github.dra4j.resourceapi.internal.slice.SliceFixtures.first;
import static io.github.dra4j.resourceapi.internal.slice.SliceFixtures.json;
import static io.github.dra4j.resourceapi.internal.slice.SliceFixtures.slice;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.github.dra4j.resourceapi.internal.slice.SliceFixtures.Case;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The rules of capacities and their request policies. Cases after Kubernetes'
 * TestValidateDeviceCapacity and the consumable capacity cases of TestValidateResourceSlice, with
 * Kubernetes 1.36's integer arithmetic and field paths (DRAFractionalCapacityRange is 1.37).
 */
class DeviceCapacityValidationTest {

  private static final String P = "spec.devices[0].capacity[c].requestPolicy";
  private static final String MAX = "9223372036854775807";
  private static final String MAX_PLUS_ONE = "9223372036854775808";

  static Stream<Case> capacities() {
    return Stream.of(
        new Case("no policy", capacity("'1Gi'", null)),
        new Case("empty policy", capacity("'1Gi'", "{}")),
        new Case("valid values without default", capacity("'1Gi'", "{'validValues': ['1Gi']}"),
            "Required " + P + ".default"),
        new Case("valid range without default", capacity("'1Gi'",
            "{'validRange': {'min': '1Gi'}}"), "Required " + P + ".default"),
        new Case("valid range without min", capacity("'1Gi'",
            "{'default': '1Gi', 'validRange': {}}"), "Required " + P + ".validRange.min"),
        new Case("simple range", capacity("'10Gi'",
            "{'default': '1Gi', 'validRange': {'min': '1Gi'}}")),
        new Case("range with max", capacity("'10Gi'",
            "{'default': '1Gi', 'validRange': {'min': '1Gi', 'max': '10Gi'}}")),
        new Case("range with step", capacity("'10Gi'",
            "{'default': '1Gi', 'validRange': {'min': '1Gi', 'step': '1Gi'}}")),
        new Case("range with max and step", capacity("'10Gi'",
            "{'default': '1Gi', 'validRange': {'min': '1Gi', 'max': '10Gi', 'step': '1Gi'}}")),
        new Case("one option", capacity("'10Gi'", "{'default': '1Gi', 'validValues': ['1Gi']}")),
        new Case("two options", capacity("'10Gi'",
            "{'default': '1Gi', 'validValues': ['1Gi', '10Gi']}")),
        new Case("default without values or range", capacity("'10Gi'", "{'default': '1Gi'}")),
        new Case("values and range", capacity("'10Gi'",
            "{'default': '1Gi', 'validValues': ['1Gi'], 'validRange': {'min': '1Gi'}}"),
            "Forbidden " + P),
        new Case("option over capacity, default not an option", capacity("'10Gi'",
            "{'default': '1Gi', 'validValues': ['20Gi']}"),
            "Invalid " + P + ".validValues[0]", "Invalid " + P + ".validValues"),
        new Case("duplicate option", capacity("'10Gi'",
            "{'default': '1Gi', 'validValues': ['1Gi', '1Gi']}"),
            "Duplicate " + P + ".validValues[1]"),
        new Case("duplicate option spelled differently", capacity("'10Gi'",
            "{'default': '1Ki', 'validValues': ['1Ki', '1024']}"),
            "Duplicate " + P + ".validValues[1]"),
        new Case("duplicate option with a decimal point", capacity("'10Gi'",
            "{'default': '1', 'validValues': ['1', '1.0']}"),
            "Duplicate " + P + ".validValues[1]"),
        new Case("options that round to the same whole number", capacity("'100'",
            "{'default': '10', 'validValues': ['9.9', '10', '100']}"),
            "Duplicate " + P + ".validValues[1]"),
        new Case("fractional options that round apart", capacity("'100'",
            "{'default': '10.1', 'validValues': ['5.1', '10.1', '100']}")),
        new Case("options at and over the 64-bit limit", capacity("'" + MAX_PLUS_ONE + "'",
            "{'default': '" + MAX + "', 'validValues': ['" + MAX + "', '" + MAX_PLUS_ONE
                + "']}"),
            "Duplicate " + P + ".validValues[1]"),
        new Case("options 100E and 1000E", capacity("'1000E'",
            "{'default': '100E', 'validValues': ['100E', '1000E']}"),
            "Duplicate " + P + ".validValues[1]"),
        new Case("11 options", capacity("'10Gi'", "{'default': '1', 'validValues': ["
            + "'1', ".repeat(10) + "'1']}"),
            "TooMany " + P + ".validValues", "Invalid " + P + ".validValues"),
        new Case("10 equal options", capacity("'10Gi'", "{'default': '1', 'validValues': ["
            + "'1', ".repeat(9) + "'1']}"),
            "Duplicate " + P + ".validValues[1]", "Duplicate " + P + ".validValues[2]",
            "Duplicate " + P + ".validValues[3]", "Duplicate " + P + ".validValues[4]",
            "Duplicate " + P + ".validValues[5]", "Duplicate " + P + ".validValues[6]",
            "Duplicate " + P + ".validValues[7]", "Duplicate " + P + ".validValues[8]",
            "Duplicate " + P + ".validValues[9]"),
        new Case("unsorted options", capacity("'10Gi'",
            "{'default': '1Gi', 'validValues': ['2Gi', '1Gi']}"),
            "Invalid " + P + ".validValues[1]"),
        new Case("negative capacity", capacity("'-1'",
            "{'default': '10', 'validValues': ['5', '10', '100']}"),
            "Invalid " + P + ".validValues[0]", "Invalid " + P + ".validValues[1]",
            "Invalid " + P + ".validValues[2]"),
        new Case("negative default", capacity("'100'",
            "{'default': '-1', 'validValues': ['5', '10', '100']}"),
            "Invalid " + P + ".validValues"),
        // Kubernetes 1.37 reports the default's errors at validRange.default.
        new Case("min over capacity and max, default out of range", capacity("'10Gi'",
            "{'default': '2Gi', 'validRange': {'min': '20Gi', 'max': '1Gi'}}"),
            "Invalid " + P + ".validRange.min", "Invalid " + P + ".validRange.min",
            "Invalid " + P + ".validRange.max", "Invalid " + P + ".validRange.max"),
        new Case("default below min", capacity("'100'",
            "{'default': '1.05', 'validRange': {'min': '1.1'}}"),
            "Invalid " + P + ".validRange.min"),
        new Case("max over capacity", capacity("'10Gi'",
            "{'default': '1Gi', 'validRange': {'min': '1Gi', 'max': '20Gi'}}"),
            "Invalid " + P + ".validRange.max"),
        new Case("default and max not steps from min", capacity("'10Gi'",
            "{'default': '2Gi', 'validRange': {'min': '1Gi', 'max': '10Gi', 'step': '2Gi'}}"),
            "Invalid " + P + ".validRange.step", "Invalid " + P + ".validRange.step"),
        new Case("one step over capacity", capacity("'10Gi'",
            "{'default': '1Gi', 'validRange': {'min': '1Gi', 'step': '10Gi'}}"),
            "Invalid " + P + ".validRange.step"),
        new Case("zero step", capacity("'1Gi'",
            "{'default': '10Mi', 'validRange': {'min': '1Mi', 'max': '100Mi', 'step': '0'}}"),
            "Invalid " + P + ".validRange.step"),
        new Case("negative step", capacity("'1Gi'",
            "{'default': '10Mi', 'validRange': {'min': '1Mi', 'max': '100Mi', 'step': '-1Mi'}}"),
            "Invalid " + P + ".validRange.step"),
        new Case("step at the 64-bit limit", capacity("'" + MAX + "'",
            "{'default': '0', 'validRange': {'min': '0', 'step': '" + MAX + "'}}")),
        // Kubernetes 1.37 refuses a step over 2^63-1 (must not be larger than ...).
        new Case("step of 2^64", capacity("'18446744073709551616'",
            "{'default': '0', 'validRange': {'min': '0', 'step': '18446744073709551616'}}")),
        // Kubernetes 1.37 refuses the negative min (must be greater than or equal to 0) instead.
        new Case("negative min with a step", capacity("'10Gi'",
            "{'default': '0', 'validRange': {'min': '-1', 'step': '1Gi'}}"),
            "Invalid " + P + ".validRange.step"),
        new Case("largest range in whole numbers", capacity("'" + MAX + "'",
            "{'default': '" + MAX + "', 'validRange': {'min': '0', 'step': '1', 'max': '" + MAX
                + "'}}")),
        new Case("thousandths rounded to whole numbers", capacity("'9223372036854775807m'",
            "{'default': '9223372036854775807m', 'validRange': {'min': '0', 'step': '1m', "
                + "'max': '9223372036854775807m'}}")),
        new Case("largest whole range with a step of 1m", capacity("'" + MAX + "'",
            "{'default': '" + MAX + "', 'validRange': {'min': '0', 'step': '1m', 'max': '" + MAX
                + "'}}")),
        new Case("policy on a device without multiple allocations", single(
            "{'default': '1Mi', 'validRange': {'min': '1Mi'}}"), "Forbidden " + P),
        new Case("empty policy on a device without multiple allocations", single("{}"),
            "Forbidden " + P));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("capacities")
  void validatesCapacity(Case c) {
    c.check(ResourceSliceValidation.validate((ResourceSlice) c.input(), GATES));
  }

  @Test
  void wordsRangeErrorsAsTheServer() {
    ResourceSlice range = capacity("'10Gi'",
        "{'default': '2Gi', 'validRange': {'min': '20Gi', 'max': '1Gi'}}");
    assertThat(strings(ResourceSliceValidation.validate(range, GATES))).containsExactlyInAnyOrder(
        P + ".validRange.min: Invalid value: \"20Gi\": min is larger than capacity value: 10Gi",
        P + ".validRange.min: Invalid value: \"2Gi\": default is less than min: 20Gi",
        P + ".validRange.max: Invalid value: \"20Gi\": min is larger than max: 1Gi",
        P + ".validRange.max: Invalid value: \"2Gi\": default is more than max: 1Gi");
    ResourceSlice step = capacity("'10Gi'",
        "{'default': '2Gi', 'validRange': {'min': '1Gi', 'max': '10Gi', 'step': '2Gi'}}");
    assertThat(strings(ResourceSliceValidation.validate(step, GATES))).containsExactlyInAnyOrder(
        P + ".validRange.step: Invalid value: \"2Gi\": value is not a multiple of a given step "
            + "(2Gi) from (1Gi)",
        P + ".validRange.step: Invalid value: \"10Gi\": value is not a multiple of a given step "
            + "(2Gi) from (1Gi)");
    ResourceSlice oneStep = capacity("'10Gi'",
        "{'default': '1Gi', 'validRange': {'min': '1Gi', 'step': '10Gi'}}");
    assertThat(strings(ResourceSliceValidation.validate(oneStep, GATES))).containsExactly(
        P + ".validRange.step: Invalid value: \"10Gi\": one step 11Gi is larger than capacity "
            + "value: 10Gi");
    ResourceSlice fraction = capacity("'100'", "{'default': '1.05', 'validRange': {'min': '1.1'}}");
    assertThat(strings(ResourceSliceValidation.validate(fraction, GATES))).containsExactly(
        P + ".validRange.min: Invalid value: \"1050m\": default is less than min: 1100m");
    ResourceSlice zero = capacity("'1Gi'",
        "{'default': '10Mi', 'validRange': {'min': '1Mi', 'step': '-1Mi'}}");
    assertThat(strings(ResourceSliceValidation.validate(zero, GATES))).containsExactly(
        P + ".validRange.step: Invalid value: \"-1Mi\": must be greater than zero");
  }

  @Test
  void wordsValueErrorsAsTheServer() {
    ResourceSlice values = capacity("'10Gi'", "{'default': '1Gi', 'validValues': ['20Gi']}");
    assertThat(strings(ResourceSliceValidation.validate(values, GATES))).containsExactlyInAnyOrder(
        P + ".validValues[0]: Invalid value: \"20Gi\": option is larger than capacity value: 10Gi",
        P + ".validValues: Invalid value: \"1Gi\": default value is not valid according to the "
            + "requestPolicy");
    ResourceSlice duplicate = capacity("'10Gi'",
        "{'default': '1Gi', 'validValues': ['1Gi', '1Gi']}");
    assertThat(strings(ResourceSliceValidation.validate(duplicate, GATES))).containsExactly(
        P + ".validValues[1]: Duplicate value: \"1073741824\"");
    ResourceSlice unsorted = capacity("'10Gi'",
        "{'default': '1Gi', 'validValues': ['2Gi', '1Gi']}");
    assertThat(strings(ResourceSliceValidation.validate(unsorted, GATES))).containsExactly(
        P + ".validValues[1]: Invalid value: \"1Gi\": values must be sorted in ascending order");
    ResourceSlice both = capacity("'10Gi'",
        "{'default': '1Gi', 'validValues': ['1Gi'], 'validRange': {'min': '1Gi'}}");
    assertThat(strings(ResourceSliceValidation.validate(both, GATES))).containsExactly(
        P + ": Forbidden: exactly one policy can be specified, cannot specify \"validValues\" and "
            + "\"validRange\" at the same time");
    assertThat(strings(ResourceSliceValidation.validate(single("{}"), GATES))).containsExactly(
        P + ": Forbidden: allowMultipleAllocations must be true");
    ResourceSlice bigDuplicate = capacity("'1000E'",
        "{'default': '100E', 'validValues': ['100E', '1000E']}");
    assertThat(strings(ResourceSliceValidation.validate(bigDuplicate, GATES))).containsExactly(
        P + ".validValues[1]: Duplicate value: \"" + MAX + "\"");
  }

  // One device allowing multiple allocations with capacity "c" (value JSON, policy JSON or null).
  static ResourceSlice capacity(String value, String policy) {
    return slice(s -> {
      first(s).setAllowMultipleAllocations(true);
      first(s).setCapacity(capacityMap(value, policy));
    });
  }

  private static ResourceSlice single(String policy) {
    return slice(s -> first(s).setCapacity(capacityMap("'1Gi'", policy)));
  }

  private static Map<String, DeviceCapacity> capacityMap(String value, String policy) {
    Map<String, DeviceCapacity> map = new LinkedHashMap<>();
    map.put("c", json("{'value': " + value + (policy == null ? "" : ", 'requestPolicy': "
        + policy) + "}", DeviceCapacity.class));
    return map;
  }
}
