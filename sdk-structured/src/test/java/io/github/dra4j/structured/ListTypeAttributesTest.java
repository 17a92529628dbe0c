package io.github.dra4j.structured;

import static io.github.dra4j.structured.DraObjects.allocator;
import static io.github.dra4j.structured.DraObjects.claim;
import static io.github.dra4j.structured.DraObjects.classA;
import static io.github.dra4j.structured.DraObjects.device;
import static io.github.dra4j.structured.DraObjects.deviceClass;
import static io.github.dra4j.structured.DraObjects.exactly;
import static io.github.dra4j.structured.DraObjects.inputs;
import static io.github.dra4j.structured.DraObjects.integer;
import static io.github.dra4j.structured.DraObjects.picks;
import static io.github.dra4j.structured.DraObjects.request;
import static io.github.dra4j.structured.DraObjects.slice;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraintBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * List-valued attributes with the feature gate DRAListTypeAttributes off (the default, as in a
 * Kubernetes 1.36 scheduler) and on (the experimental allocator).
 */
class ListTypeAttributesTest {

  private static final StructuredAllocator GATE_OFF = allocator(AllocatorFeatures.DEFAULTS);
  private static final StructuredAllocator GATE_ON = allocator(
      AllocatorFeatures.DEFAULTS.withListTypeAttributes(true));
  private static final AllocationOutcome CANNOT = new AllocationOutcome.Unsatisfiable(
      AllocationOutcome.CANNOT_ALLOCATE);

  /** A device whose {@code numa} attribute is a list of ints. */
  private static DeviceBuilder numa(String name, long... nodes) {
    Long[] values = Arrays.stream(nodes).boxed().toArray(Long[]::new);
    return device(name).addToAttributes("numa",
        new DeviceAttributeBuilder().withInts(values).build());
  }

  /** A claim whose requests are all held to one constraint. */
  private static ResourceClaim constrained(DeviceConstraint constraint, DeviceRequest... requests) {
    ResourceClaim claim = claim("claim-0", requests);
    claim.getSpec().getDevices().setConstraints(List.of(constraint));
    return claim;
  }

  /** One request for {@code count} devices that must match on {@code driver-a/numa}. */
  private static ResourceClaim matching(long count) {
    return constrained(new DeviceConstraintBuilder().withMatchAttribute("driver-a/numa").build(),
        request("req-0", exactly("any").withCount(count)));
  }

  /** A node with one slice of the given devices and the selector-less class {@code any}. */
  private static AllocatorInputs anyOf(DeviceBuilder... devices) {
    return inputs().deviceClasses(deviceClass("any"))
        .slices(slice("slice-1", "driver-a", "pool-1", devices)).build();
  }

  @Test
  void theDefaultsAreKubernetes136WithTheAlphaGateOff() {
    assertThat(StructuredAllocator.create().features()).isEqualTo(AllocatorFeatures.DEFAULTS);
    assertThat(AllocatorFeatures.DEFAULTS.listTypeAttributes()).isFalse();
    assertThat(AllocatorFeatures.DEFAULTS.withListTypeAttributes(true))
        .isEqualTo(AllocatorFeatures.ALL);
  }

  @Test
  void gateOffASelectorOnADeviceWithAListAttributeAbortsTheAttempt() {
    AllocatorInputs inputs = inputs().deviceClasses(classA())
        .slices(slice("slice-1", "driver-a", "pool-1", numa("device-1", 0, 1))).build();
    assertThat(GATE_OFF.allocate(claim("claim-0", request("req-0", "class-a")), inputs))
        .isEqualTo(new AllocationOutcome.Failed("class class-a: selector #0 on device"
            + " driver-a/pool-1/device-1: CEL runtime error: attribute numa: unsupported attribute"
            + " value", false));
    assertThat(picks(GATE_ON.allocate(claim("claim-0", request("req-0", "class-a")), inputs)))
        .containsExactly("req-0→device-1");
  }

  @Test
  void gateOnSelectorsSeeTheList() {
    AllocatorInputs inputs = inputs()
        .deviceClasses(deviceClass("numa-1", "device.attributes[\"driver-a\"].numa.includes(1)"))
        .slices(slice("slice-1", "driver-a", "pool-1", numa("device-1", 0), numa("device-2", 0, 1)))
        .build();
    assertThat(picks(GATE_ON.allocate(claim("claim-0", request("req-0", "numa-1")), inputs)))
        .containsExactly("req-0→device-2");
  }

  @Test
  void matchAttributeNeedsACommonValueWithTheGateOnAndSeesNoValueWithItOff() {
    AllocatorInputs inputs = anyOf(numa("device-1", 0, 1), numa("device-2", 1, 2));
    ResourceClaim claim = matching(2);
    assertThat(picks(GATE_ON.allocate(claim, inputs))).containsExactly("req-0→device-1",
        "req-0→device-2");
    assertThat(GATE_OFF.allocate(claim, inputs)).isEqualTo(CANNOT);
  }

  @Test
  void matchAttributeRestoresTheIntersectionWhenItBacktracks() {
    AllocatorInputs inputs = anyOf(numa("device-1", 1, 2), numa("device-2", 1), numa("device-3", 2),
        numa("device-4", 2));
    assertThat(picks(GATE_ON.allocate(matching(3), inputs)))
        .containsExactly("req-0→device-1", "req-0→device-3", "req-0→device-4");
  }

  @Test
  void aScalarIsAOneValueSetWithTheGateOn() {
    AllocatorInputs inputs = anyOf(device("device-1").addToAttributes("numa", integer(1)),
        numa("device-2", 0, 1));
    ResourceClaim claim = matching(2);
    assertThat(picks(GATE_ON.allocate(claim, inputs))).containsExactly("req-0→device-1",
        "req-0→device-2");
    assertThat(GATE_OFF.allocate(claim, inputs)).isEqualTo(CANNOT);
  }

  @Test
  void distinctAttributeNeedsDisjointListsWithTheGateOn() {
    AllocatorInputs inputs = anyOf(numa("device-1", 0, 1), numa("device-2", 1, 2),
        numa("device-3", 3));
    ResourceClaim claim = constrained(
        new DeviceConstraintBuilder().withDistinctAttribute("driver-a/numa").build(),
        request("req-0", "any"), request("req-1", "any"));
    assertThat(picks(GATE_ON.allocate(claim, inputs))).containsExactly("req-0→device-1",
        "req-1→device-3");
    assertThat(picks(GATE_OFF.allocate(claim, inputs)))
        .as("without a recognised value nothing conflicts")
        .containsExactly("req-0→device-1", "req-1→device-2");
  }
}
