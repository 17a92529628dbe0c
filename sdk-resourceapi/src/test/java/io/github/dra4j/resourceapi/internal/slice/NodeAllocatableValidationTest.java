package io.github.dra4j.resourceapi.internal.slice;

import static io.github.dra4j.resourceapi.internal.slice.ResourceSliceValidationTest.strings;
import static io.github.dra4j.resourceapi.internal.slice.SliceFixtures.GATES;
import static io.github.dra4j.resourceapi.internal.slice.SliceFixtures.first;
import static io.github.dra4j.resourceapi.internal.slice.SliceFixtures.json;
import static io.github.dra4j.resourceapi.internal.slice.SliceFixtures.slice;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.github.dra4j.resourceapi.internal.slice.SliceFixtures.Case;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The rules of {@code nodeAllocatableResources} in fabric8's (Kubernetes 1.37) shape, a field
 * that 1.36 drops on write. Cases after Kubernetes' TestValidateResourceSlice, in our words.
 */
class NodeAllocatableValidationTest {

  private static final String N = "spec.devices[0].nodeAllocatableResources";
  private static final String CPU_MAPPING = "{'mapping': {'capacityKey': 'dra.example.com/cpu', "
      + "'capacityMultiplier': '1'}}";

  static Stream<Case> cases() {
    return Stream.of(
        new Case("cpu and memory mapped from capacity", resources("{'cpu': " + CPU_MAPPING
            + ", 'memory': " + CPU_MAPPING + "}")),
        new Case("empty capacity key", resources("{'cpu': {'mapping': {'capacityKey': '', "
            + "'capacityMultiplier': '1'}}}"), "Invalid " + N + "[cpu].mapping.capacityKey"),
        new Case("capacity key not a capacity", resources("{'memory': {'mapping': "
            + "{'capacityKey': 'dra.example.com/hugepages', 'capacityMultiplier': '1'}}}"),
            "NotFound " + N + "[memory].mapping.capacityKey"),
        new Case("negative device multiplier", resources("{'cpu': {'mapping': "
            + "{'deviceMultiplier': '-1'}}}"), "Invalid " + N + "[cpu].mapping.deviceMultiplier"),
        new Case("zero device multiplier", resources("{'cpu': {'mapping': "
            + "{'deviceMultiplier': '0'}}}"), "Invalid " + N + "[cpu].mapping.deviceMultiplier"),
        new Case("negative capacity multiplier", resources("{'cpu': {'mapping': {'capacityKey': "
            + "'dra.example.com/cpu', 'capacityMultiplier': '-1'}}}"),
            "Invalid " + N + "[cpu].mapping.capacityMultiplier"),
        new Case("capacity key without multiplier", resources("{'cpu': {'mapping': "
            + "{'capacityKey': 'dra.example.com/cpu'}}}"),
            "Required " + N + "[cpu].mapping.capacityMultiplier"),
        new Case("multiplier without capacity key", resources("{'cpu': {'mapping': "
            + "{'capacityMultiplier': '1'}}}"), "Required " + N + "[cpu].mapping.capacityKey"),
        new Case("extended resource name", resources("{'dra.example.com/gpu': "
            + CPU_MAPPING + "}"), "Invalid " + N + "[dra.example.com/gpu]"),
        new Case("non-standard name", resources("{'abc': {'overhead': {'perPod': '1'}}}"),
            "Invalid " + N + "[abc]"),
        new Case("kubernetes.io name", resources("{'kubernetes.io/foo': {'overhead': "
            + "{'perPod': '1'}}}"), "Invalid " + N + "[kubernetes.io/foo]"),
        new Case("ephemeral storage", resources("{'ephemeral-storage': {'overhead': "
            + "{'perPod': '2Gi'}}}"), "Invalid " + N + "[ephemeral-storage]"),
        new Case("huge pages", resources("{'hugepages-2Mi': {'overhead': {'perPod': '2Mi'}}}")),
        new Case("empty overhead", resources("{'memory': {'overhead': {}}}"),
            "Invalid " + N + "[memory].overhead"),
        new Case("negative per-pod overhead", resources("{'memory': {'overhead': "
            + "{'perPod': '-1Gi'}}}"), "Invalid " + N + "[memory].overhead.perPod"),
        new Case("negative per-container overhead", resources("{'memory': {'overhead': "
            + "{'perContainer': '-500Mi'}}}"), "Invalid " + N + "[memory].overhead.perContainer"),
        new Case("overhead per pod and container", resources("{'memory': {'overhead': "
            + "{'perPod': '1Gi', 'perContainer': '500Mi'}}}")),
        new Case("mapping and overhead", resources("{'cpu': {'mapping': {'capacityKey': "
            + "'dra.example.com/cpu', 'capacityMultiplier': '1'}, 'overhead': "
            + "{'perPod': '1Gi'}}}")),
        new Case("neither mapping nor overhead", resources("{'cpu': {}}"),
            "Required " + N + "[cpu]"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void validates(Case c) {
    c.check(ResourceSliceValidation.validate((ResourceSlice) c.input(), GATES));
  }

  @Test
  void wordsErrorsAsTheServer() {
    ResourceSlice slice = resources("{'abc': {'overhead': {'perPod': '-1Gi'}}, "
        + "'cpu': {'mapping': {'capacityKey': 'nonexistent', 'capacityMultiplier': '0'}}}");
    assertThat(strings(ResourceSliceValidation.validate(slice, GATES))).containsExactlyInAnyOrder(
        N + "[abc]: Invalid value: \"abc\": must be a node allocatable resource name",
        N + "[abc].overhead.perPod: Invalid value: \"-1Gi\": must be non-negative",
        N + "[cpu].mapping.capacityKey: Not found: \"nonexistent\"",
        N + "[cpu].mapping.capacityMultiplier: Invalid value: \"0\": must be positive");
  }

  private static ResourceSlice resources(String json) {
    return slice(s -> {
      Device device = first(s);
      Device withCapacity = json("{'capacity': {'dra.example.com/cpu': {'value': '100'}, "
          + "'dra.example.com/memory': {'value': '100Gi'}}, 'nodeAllocatableResources': "
          + json + "}", Device.class);
      device.setCapacity(withCapacity.getCapacity());
      device.setNodeAllocatableResources(withCapacity.getNodeAllocatableResources());
    });
  }
}
