package io.github.dra4j.resourceapi.internal.slice;

import static io.github.dra4j.resourceapi.internal.slice.ResourceSliceValidationTest.strings;
import static io.github.dra4j.resourceapi.internal.slice.SliceFixtures.GATES;
import static io.github.dra4j.resourceapi.internal.slice.SliceFixtures.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import org.junit.jupiter.api.Test;

/**
 * Mistakes a driver is likely to make in a slice, several in one slice each, with the server's
 * exact lines: device names, driver and node names, taint effects, binding conditions and
 * attribute names.
 */
class TypicalSliceMistakesTest {

  private static final String SUBDOMAIN = "a lowercase RFC 1123 subdomain must consist of lower "
      + "case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric "
      + "character (e.g. 'example.com', regex used for validation is "
      + "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
  private static final String LABEL = "a lowercase RFC 1123 label must consist of lower case "
      + "alphanumeric characters or '-', and must start and end with an alphanumeric character "
      + "(e.g. 'my-name',  or '123-abc', regex used for validation is "
      + "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

  @Test
  void reportsBadNamesAsTheServer() {
    ResourceSlice slice = json("{'metadata': {'name': 'x'}, 'spec': {'driver': 'D_river', "
        + "'nodeName': 'node/1', 'pool': {'name': 'p', 'resourceSliceCount': 1}, 'devices': ["
        + "{'name': 'gpu-0-mig-1g.5gb'}, {'name': 'GPU-0'}, {'name': '" + "g".repeat(64) + "'}, "
        + "{'name': 'gpu-0'}, {'name': 'gpu-0'}]}}", ResourceSlice.class);
    assertThat(strings(ResourceSliceValidation.validate(slice, GATES))).containsExactlyInAnyOrder(
        "spec.driver: Invalid value: \"D_river\": " + SUBDOMAIN,
        "spec.nodeName: Invalid value: \"node/1\": " + SUBDOMAIN,
        "spec.devices[0].name: Invalid value: \"gpu-0-mig-1g.5gb\": must not contain dots",
        "spec.devices[1].name: Invalid value: \"GPU-0\": " + LABEL,
        "spec.devices[2].name: Invalid value: \"" + "g".repeat(64)
            + "\": must be no more than 63 characters",
        "spec.devices[4]: Duplicate value: \"gpu-0\"");
  }

  @Test
  void reportsTaintsBindingConditionsAndAttributeNamesAsTheServer() {
    ResourceSlice slice = json("{'metadata': {'name': 'x'}, 'spec': {'driver': 'dra.example.com',"
        + " 'allNodes': true, 'pool': {'name': 'p', 'resourceSliceCount': 1}, 'devices': [{"
        + "'name': 'gpu-0', 'taints': [{'key': 'k', 'effect': 'PreferNoSchedule'}], "
        + "'bindingConditions': ['a!'], 'bindingFailureConditions': ['b'], "
        + "'attributes': {'a-b': {'int': 1}, 'x_y.com/c': {'int': 1}}}]}}", ResourceSlice.class);
    assertThat(strings(ResourceSliceValidation.validate(slice, GATES))).containsExactlyInAnyOrder(
        "spec.devices[0].taints[0].effect: Unsupported value: \"PreferNoSchedule\": supported "
            + "values: \"NoExecute\", \"NoSchedule\", \"None\"",
        "spec.devices[0].bindingConditions[0]: Invalid value: \"a!\": name part must consist of "
            + "alphanumeric characters, '-', '_' or '.', and must start and end with an "
            + "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used "
            + "for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
        "spec.devices[0].attributes: Invalid value: \"a-b\": a valid C identifier must start "
            + "with alphabetic character or '_', followed by a string of alphanumeric "
            + "characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for "
            + "validation is '[A-Za-z_][A-Za-z0-9_]*')",
        "spec.devices[0].attributes: Invalid value: \"x_y.com\": " + SUBDOMAIN);
  }
}
