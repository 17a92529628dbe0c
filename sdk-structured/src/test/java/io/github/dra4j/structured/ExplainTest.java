package io.github.dra4j.structured;

import static io.github.dra4j.structured.DraObjects.allocator;
import static io.github.dra4j.structured.DraObjects.classA;
import static io.github.dra4j.structured.DraObjects.claim;
import static io.github.dra4j.structured.DraObjects.consuming;
import static io.github.dra4j.structured.DraObjects.counterSet;
import static io.github.dra4j.structured.DraObjects.device;
import static io.github.dra4j.structured.DraObjects.deviceClass;
import static io.github.dra4j.structured.DraObjects.exactly;
import static io.github.dra4j.structured.DraObjects.inputs;
import static io.github.dra4j.structured.DraObjects.labelSelector;
import static io.github.dra4j.structured.DraObjects.request;
import static io.github.dra4j.structured.DraObjects.slice;
import static io.github.dra4j.structured.DraObjects.string;
import static io.github.dra4j.structured.DraObjects.withCapacity;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequirementsBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraintBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTolerationBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import io.github.dra4j.structured.AllocationExplanation.DeviceVerdict;
import io.github.dra4j.structured.AllocationExplanation.Reason;
import io.github.dra4j.structured.AllocationExplanation.RequestExplanation;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link StructuredAllocator#explain}: one scenario with a known answer per rejection reason. */
class ExplainTest {

  private static final String DRIVER = "driver-a";

  private static AllocationExplanation explain(ResourceClaim claim, AllocatorInputs inputs) {
    return allocator().explain(List.of(claim), inputs);
  }

  private static RequestExplanation only(AllocationExplanation explanation) {
    assertThat(explanation.claims()).hasSize(1);
    assertThat(explanation.claims().get(0).requests()).hasSize(1);
    return explanation.claims().get(0).requests().get(0);
  }

  private static DeviceVerdict verdict(AllocationExplanation explanation, String device) {
    return only(explanation).devices().stream().filter(d -> d.device().equals(device)).findFirst()
        .orElseThrow(() -> new AssertionError(device + " not considered: " + explanation));
  }

  @Test
  void theAllocationItWouldMake() {
    AllocationExplanation explanation = explain(claim("c", request("gpu", "class-a")),
        inputs().deviceClasses(classA()).slices(slice("s", DRIVER, "p", device("d-0"))).build());
    assertThat(explanation.outcome().isAllocated()).isTrue();
    assertThat(only(explanation).allocated()).containsExactly("driver-a/p/d-0");
    assertThat(verdict(explanation, "d-0").reason()).isEqualTo(Reason.USABLE);
  }

  @Test
  void theFalseConditionOfAClassSelectorAndOfARequestSelector() {
    String classSelector = "device.driver == \"driver-a\" && device.attributes[\"driver-a\"].model == \"A100\"";
    ResourceClaim claim = claim("c", request("gpu", exactly("gpu")
        .addToSelectors(DraObjects.selector("device.attributes[\"driver-a\"].model == \"A100\""
            + " && device.attributes[\"driver-a\"].region == \"eu\""))));
    AllocationExplanation explanation = explain(claim, inputs()
        .deviceClasses(deviceClass("gpu", "device.driver == \"driver-a\"", classSelector))
        .slices(slice("s", DRIVER, "p",
            device("t4").addToAttributes("model", string("T4")),
            device("a100-us").addToAttributes("model", string("A100"))
                .addToAttributes("region", string("us"))))
        .build());
    assertThat(explanation.outcome()).isInstanceOf(AllocationOutcome.Unsatisfiable.class);
    assertThat(verdict(explanation, "t4")).extracting(DeviceVerdict::reason, DeviceVerdict::detail)
        .containsExactly(Reason.CLASS_SELECTOR_FALSE,
            "class gpu selector #1 is false: device.attributes[\"driver-a\"].model == \"A100\"");
    assertThat(verdict(explanation, "a100-us").detail())
        .isEqualTo(
            "request selector #0 is false: device.attributes[\"driver-a\"].region == \"eu\"");
    assertThat(verdict(explanation, "a100-us").reason()).isEqualTo(Reason.REQUEST_SELECTOR_FALSE);
  }

  @Test
  void aTaintNotTolerated() {
    ResourceSlice slice = slice("s", DRIVER, "p", device("d-0").addToTaints(new DeviceTaintBuilder()
        .withKey("health").withValue("bad").withEffect("NoSchedule").build()));
    AllocationExplanation explanation = explain(claim("c", request("gpu", "class-a")),
        inputs().deviceClasses(classA()).slices(slice).build());
    assertThat(verdict(explanation, "d-0")).extracting(DeviceVerdict::reason, DeviceVerdict::detail)
        .containsExactly(Reason.TAINT_NOT_TOLERATED,
            "taint health=bad:NoSchedule is not tolerated by the request");
    AllocationExplanation tolerated = explain(claim("c", request("gpu", exactly("class-a")
        .addToTolerations(new DeviceTolerationBuilder().withKey("health").withOperator("Exists")
            .build()))),
        inputs().deviceClasses(classA()).slices(slice).build());
    assertThat(only(tolerated).allocated()).containsExactly("driver-a/p/d-0");
  }

  @Test
  void alreadyAllocatedNamesTheClaimAndAdminAccessMayUseItAllTheSame() {
    AllocatorInputs first = inputs().deviceClasses(classA())
        .slices(slice("s", DRIVER, "p", device("d-0"))).build();
    ResourceClaim holder = DraObjects.allocated(
        allocator().allocate(claim("holder", request("gpu", "class-a")), first)).claim();
    AllocatorInputs inputs = first.toBuilder().allocatedClaims(holder).build();
    AllocationExplanation explanation = explain(claim("c", request("gpu", "class-a")), inputs);
    assertThat(verdict(explanation, "d-0")).extracting(DeviceVerdict::reason, DeviceVerdict::detail)
        .containsExactly(Reason.ALREADY_ALLOCATED, "allocated to claim default/holder");
    AllocationExplanation admin = explain(claim("admin", request("gpu", exactly("class-a")
        .withAdminAccess(true))), inputs);
    assertThat(verdict(admin, "d-0")).extracting(DeviceVerdict::reason, DeviceVerdict::detail)
        .containsExactly(Reason.USABLE,
            "allocated to claim default/holder; admin access may use it all the same");
    assertThat(only(admin).allocated()).containsExactly("driver-a/p/d-0");
  }

  @Test
  void sharedCountersExhausted() {
    ResourceSlice devices = new ResourceSliceBuilder(slice("s", DRIVER, "p",
        consuming(device("big"), "mem", "memory", "6Gi"),
        consuming(device("small"), "mem", "memory", "4Gi")))
        .editSpec().editPool().withResourceSliceCount(2L).endPool().endSpec().build();
    ResourceSlice counters = new ResourceSliceBuilder(
        slice("s-counters", DRIVER, "p", new io.fabric8.kubernetes.api.model.resource.v1.Device[0]))
        .editSpec().withDevices().withSharedCounters(counterSet("mem", "memory", "8Gi"))
        .editPool().withResourceSliceCount(2L).endPool().endSpec().build();
    AllocatorInputs first = inputs().deviceClasses(classA()).slices(devices, counters).build();
    ResourceClaim holder = DraObjects.allocated(
        allocator().allocate(claim("holder", request("gpu", "class-a")), first)).claim();
    AllocationExplanation explanation = explain(claim("c", request("gpu", "class-a")),
        first.toBuilder().allocatedClaims(holder).build());
    assertThat(verdict(explanation, "big").reason()).isEqualTo(Reason.ALREADY_ALLOCATED);
    assertThat(verdict(explanation, "small"))
        .extracting(DeviceVerdict::reason, DeviceVerdict::detail)
        .containsExactly(Reason.COUNTERS_EXHAUSTED, "counter set mem: counter memory: needs 4Gi,"
            + " 2Gi of 8Gi left after the devices already allocated");
  }

  @Test
  void consumableCapacityShort() {
    ResourceSlice slice = slice("s", DRIVER, "p",
        withCapacity(device("d-0").withAllowMultipleAllocations(true), "memory", "8Gi"));
    ResourceClaim claim = claim("c", request("gpu", exactly("class-a").withCapacity(
        new CapacityRequirementsBuilder().addToRequests("memory", new Quantity("10Gi")).build())));
    AllocationExplanation explanation = explain(claim,
        inputs().deviceClasses(classA()).slices(slice).build());
    assertThat(verdict(explanation, "d-0")).extracting(DeviceVerdict::reason, DeviceVerdict::detail)
        .containsExactly(Reason.CAPACITY_INSUFFICIENT,
            "capacity memory: needs 10Gi, 0 of 8Gi already consumed by other allocations");
  }

  @Test
  void wrongNodeBySliceNodeAndByNodeSelector() {
    ResourceSlice otherNode = new ResourceSliceBuilder(slice("node-2-s", DRIVER, "node-2",
        device("d-0"))).editSpec().withNodeName("node-2").endSpec().build();
    ResourceSlice zoned = new ResourceSliceBuilder(slice("zone-s", DRIVER, "zone",
        device("z-0"))).editSpec().withNodeName(null).withNodeSelector(
            labelSelector("region", "region-2"))
        .endSpec().build();
    AllocationExplanation explanation = explain(claim("c", request("gpu", "class-a")),
        inputs().deviceClasses(classA()).slices(otherNode, zoned).build());
    assertThat(explanation.outcome()).isInstanceOf(AllocationOutcome.Unsatisfiable.class);
    assertThat(verdict(explanation, "d-0")).extracting(DeviceVerdict::reason, DeviceVerdict::detail)
        .containsExactly(Reason.WRONG_NODE, "slice node-2-s is published for node node-2");
    assertThat(verdict(explanation, "z-0").detail())
        .isEqualTo("the node selector of slice zone-s does not select this node");
  }

  @Test
  void aDeviceClassThatDoesNotExistIsTheRequestsError() {
    AllocationExplanation explanation = explain(claim("c", request("gpu", "nope")),
        inputs().deviceClasses(classA()).slices(slice("s", DRIVER, "p", device("d-0"))).build());
    assertThat(only(explanation).error()).contains("claim default/c, request gpu: could not"
        + " retrieve device class nope: deviceclass.resource.k8s.io \"nope\" not found");
    assertThat(explanation.outcome().failureReason()).isEqualTo(only(explanation).error());
  }

  @Test
  void anIncompletePoolAndAMissingConstraintAttribute() {
    ResourceSlice incomplete = new ResourceSliceBuilder(slice("s-1", DRIVER, "p", device("d-0")))
        .editSpec().editPool().withResourceSliceCount(2L).endPool().endSpec().build();
    ResourceClaim claim = new ResourceClaimBuilder(claim("c", request("gpu", "class-a")))
        .editSpec().editDevices().withConstraints(new DeviceConstraintBuilder()
            .withMatchAttribute("driver-a/numa").build())
        .endDevices().endSpec().build();
    AllocationExplanation explanation = explain(claim, inputs().deviceClasses(classA())
        .slices(incomplete, slice("q", DRIVER, "q", device("q-0"))).build());
    assertThat(verdict(explanation, "d-0").reason()).isEqualTo(Reason.POOL_INCOMPLETE);
    assertThat(verdict(explanation, "q-0")).extracting(DeviceVerdict::reason, DeviceVerdict::detail)
        .containsExactly(Reason.CONSTRAINT_ATTRIBUTE_MISSING, "constraint #0 (matchAttribute"
            + " driver-a/numa) needs the attribute, the device does not have it");
  }

  @Test
  void eachSubrequestIsExplainedOnItsOwn() {
    ResourceClaim claim = new ResourceClaimBuilder(claim("c")).editSpec().editDevices()
        .addNewRequest().withName("gpu")
        .addNewFirstAvailable().withName("big").withDeviceClassName("class-a")
        .addToSelectors(DraObjects.selector("device.attributes[\"driver-a\"].model == \"big\""))
        .endFirstAvailable()
        .addNewFirstAvailable().withName("any").withDeviceClassName("class-a").endFirstAvailable()
        .endRequest().endDevices().endSpec().build();
    AllocationExplanation explanation = explain(claim, inputs().deviceClasses(classA())
        .slices(slice("s", DRIVER, "p", device("d-0").addToAttributes("model", string("small"))))
        .build());
    List<RequestExplanation> requests = explanation.claims().get(0).requests();
    assertThat(requests).extracting(RequestExplanation::request).containsExactly("gpu/big",
        "gpu/any");
    assertThat(requests.get(0).devices().get(0).reason()).isEqualTo(Reason.REQUEST_SELECTOR_FALSE);
    assertThat(requests.get(1).allocated()).containsExactly("driver-a/p/d-0");
  }
}
