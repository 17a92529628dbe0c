package io.github.dra4j.structured;

import static io.github.dra4j.structured.DraObjects.allocated;
import static io.github.dra4j.structured.DraObjects.allocator;
import static io.github.dra4j.structured.DraObjects.claim;
import static io.github.dra4j.structured.DraObjects.classA;
import static io.github.dra4j.structured.DraObjects.consuming;
import static io.github.dra4j.structured.DraObjects.counterSet;
import static io.github.dra4j.structured.DraObjects.device;
import static io.github.dra4j.structured.DraObjects.deviceClass;
import static io.github.dra4j.structured.DraObjects.exactly;
import static io.github.dra4j.structured.DraObjects.inputs;
import static io.github.dra4j.structured.DraObjects.labelSelector;
import static io.github.dra4j.structured.DraObjects.picks;
import static io.github.dra4j.structured.DraObjects.request;
import static io.github.dra4j.structured.DraObjects.results;
import static io.github.dra4j.structured.DraObjects.selector;
import static io.github.dra4j.structured.DraObjects.slice;
import static io.github.dra4j.structured.DraObjects.string;
import static io.github.dra4j.structured.DraObjects.withCapacity;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NodeSelectorBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorTermBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTolerationBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Small allocation scenarios with the result Kubernetes' allocator gives: backtracking between
 * requests, combinations, first-available fallback, shared counters, taints and tolerations (with
 * the whole allocation result compared as JSON), merged node selectors and incomplete pools.
 */
class WorkedExamplesTest {

  private static final String MEMORY = "device.capacity[\"driver-a\"].memory";

  @Test
  void example1_backtrackingBetweenRequests() {
    ResourceSlice slice = slice("slice-1", "driver-a", "pool-1",
        withCapacity(device("device-2"), "memory", "2Gi"),
        withCapacity(device("device-1"), "memory", "1Gi"));
    ResourceClaim claim = claim("claim-0",
        request("req-0", exactly("class-a").withSelectors(
            selector(MEMORY + ".compareTo(quantity(\"1Gi\")) >= 0"))),
        request("req-1", exactly("class-a").withSelectors(
            selector(MEMORY + ".compareTo(quantity(\"2Gi\")) >= 0"))));

    AllocationOutcome outcome = allocator().allocate(claim,
        inputs().deviceClasses(classA()).slices(slice).build());

    assertThat(picks(outcome)).containsExactly("req-0→device-1", "req-1→device-2");
  }

  @Test
  void example2_combinationsOnly() {
    ResourceSlice slice = slice("slice-1", "driver-a", "pool-1",
        device("device-1").addToAttributes("type", string("X")),
        device("device-2").addToAttributes("type", string("Y")),
        device("device-3").addToAttributes("type", string("Y")));
    ResourceClaim claim = claim("claim-0",
        request("req-1", exactly("class-a").withCount(2L)),
        request("req-2", exactly("class-a").withSelectors(
            selector("device.attributes[\"driver-a\"].type == \"X\""))));

    AllocationOutcome outcome = allocator().allocate(claim,
        inputs().deviceClasses(classA()).slices(slice).build());

    assertThat(picks(outcome)).containsExactly("req-1→device-2", "req-1→device-3",
        "req-2→device-1");
  }

  @Test
  void example3_firstAvailableFallsBackToTheNextSubrequest() {
    ResourceClaim claim = claim("claim-0", new DeviceRequestBuilder().withName("req-0")
        .withFirstAvailable(
            new DeviceSubRequestBuilder().withName("subReq-0").withDeviceClassName("class-b")
                .build(),
            new DeviceSubRequestBuilder().withName("subReq-1").withDeviceClassName("class-a")
                .build())
        .build());

    AllocationOutcome outcome = allocator().allocate(claim, inputs()
        .deviceClasses(classA(), deviceClass("class-b", "device.driver == \"driver-b\""))
        .slices(slice("slice-1", "driver-a", "pool-1", device("device-1")))
        .build());

    assertThat(picks(outcome)).containsExactly("req-0/subReq-1→device-1");
  }

  @Test
  void example4_countersPickTheDevicesThatFitTogether() {
    List<ResourceSlice> slices = counterPool("5Gi", "4Gi", "4Gi");
    ResourceClaim claim = claim("claim-0", request("req-0", exactly("class-a").withCount(2L)));

    AllocationOutcome outcome = allocator().allocate(claim,
        inputs().deviceClasses(classA()).slices(slices).build());

    assertThat(picks(outcome)).containsExactly("req-0→device-2", "req-0→device-3");
  }

  @Test
  void example4_countersConsumedByAllocatedDevicesAreNotAvailable() {
    List<ResourceSlice> slices = counterPool("4Gi", "6Gi", "4Gi");
    ResourceClaim holder = claim("holder", request("req-0", "class-a"));
    ResourceClaim holding = allocated(allocator().allocate(holder,
        inputs().deviceClasses(classA()).slices(slices).build())).claim();
    assertThat(picks(new AllocationOutcome.Allocated(List.of(holding))))
        .containsExactly("req-0→device-1");

    AllocationOutcome outcome = allocator().allocate(
        claim("claim-0", request("req-0", "class-a")),
        inputs().deviceClasses(classA()).slices(slices).allocatedClaims(holding).build());

    assertThat(picks(outcome)).containsExactly("req-0→device-3");
  }

  /** A pool with an 8Gi counter set slice and a device slice whose devices consume the given sizes. */
  static List<ResourceSlice> counterPool(String... sizes) {
    ResourceSlice counters = slice("slice-0-counters", "driver-a", "pool-1", new Device[0]);
    counters.getSpec().setDevices(null);
    counters.getSpec().setSharedCounters(List.of(counterSet("gpu-0", "memory", "8Gi")));
    counters.getSpec().getPool().setResourceSliceCount(2L);
    ResourceSlice devices = slice("slice-1-devices", "driver-a", "pool-1", new Device[0]);
    devices.getSpec().getPool().setResourceSliceCount(2L);
    for (int i = 0; i < sizes.length; i++) {
      devices.getSpec().getDevices().add(
          consuming(device("device-" + (i + 1)), "gpu-0", "memory", sizes[i]).build());
    }
    return List.of(counters, devices);
  }

  @Test
  void example5_taintsAreToleratedAndTheTolerationIsCopied() {
    AllocationOutcome outcome = allocator().allocate(taintedClaim(), inputs()
        .deviceClasses(classA()).slices(taintedSlice()).build());

    assertThat(picks(outcome)).containsExactly("req-0→device-2");
    assertThat(results(outcome).get(0).getTolerations())
        .containsExactly(new DeviceTolerationBuilder()
            .withKey("taint-key").withOperator("Equal").withValue("taint-value-2")
            .withEffect("NoExecute")
            .build());
  }

  @Test
  void example5_theAllocationResultOfATolerationCarriesItAndTheNodeSelector() {
    AllocationOutcome outcome = allocator().allocate(taintedClaim(), inputs()
        .deviceClasses(classA()).slices(taintedSlice()).build());

    String expected = "{\"devices\": {\"results\": [{\"request\": \"req-0\", \"driver\": \"driver-a\","
        + " \"pool\": \"pool-1\", \"device\": \"device-2\", \"tolerations\": [{\"key\": \"taint-key\","
        + " \"operator\": \"Equal\", \"value\": \"taint-value-2\", \"effect\": \"NoExecute\"}]}]},"
        + " \"nodeSelector\": {\"nodeSelectorTerms\": [{\"matchFields\": [{\"key\": \"metadata.name\","
        + " \"operator\": \"In\", \"values\": [\"node-1\"]}]}]}}";
    KubernetesSerialization json = new KubernetesSerialization();
    Object actual = json.unmarshal(
        json.asJson(allocated(outcome).claim().getStatus().getAllocation()), Map.class);
    assertThat(actual).isEqualTo(json.unmarshal(expected, Map.class));
  }

  private static ResourceSlice taintedSlice() {
    return slice("slice-1", "driver-a", "pool-1",
        device("device-1").withTaints(new DeviceTaintBuilder()
            .withKey("taint-key").withValue("taint-value-1").withEffect("NoSchedule").build()),
        device("device-2").withTaints(new DeviceTaintBuilder()
            .withKey("taint-key").withValue("taint-value-2").withEffect("NoExecute").build()));
  }

  private static ResourceClaim taintedClaim() {
    return claim("claim-0", request("req-0", exactly("class-a").withTolerations(
        new DeviceTolerationBuilder().withKey("taint-key").withOperator("Equal")
            .withValue("taint-value-2").withEffect("NoExecute").build())));
  }

  @Test
  void example6_nodeSelectorsOfThePoolsAreMergedIntoOneTerm() {
    ResourceSlice region = networkSlice("slice-1", "pool-1");
    region.getSpec().setNodeSelector(labelSelector("region", "region-1"));
    ResourceSlice all = networkSlice("slice-2", "pool-2");
    all.getSpec().setAllNodes(true);
    ResourceSlice planet = networkSlice("slice-3", "pool-3");
    planet.getSpec().setNodeSelector(labelSelector("planet", "earth"));
    ResourceSlice byName = networkSlice("slice-4", "pool-4");
    byName.getSpec().setNodeSelector(new NodeSelectorBuilder().withNodeSelectorTerms(
        new NodeSelectorTermBuilder().withMatchFields(new NodeSelectorRequirementBuilder()
            .withKey("metadata.name").withOperator("In").withValues("node-1").build()).build())
        .build());
    ResourceSlice elsewhere = networkSlice("slice-5", "pool-5");
    elsewhere.getSpec().setNodeSelector(labelSelector("region", "region-2"));

    AllocationOutcome outcome = allocator().allocate(
        claim("claim-0", request("req-0", exactly("class-a").withCount(4L))),
        inputs().deviceClasses(classA()).slices(region, all, planet, byName, elsewhere).build());

    assertThat(results(outcome)).extracting(r -> r.getPool())
        .containsExactly("pool-1", "pool-2", "pool-3", "pool-4");
    assertThat(allocated(outcome).claim().getStatus().getAllocation().getNodeSelector())
        .isEqualTo(new NodeSelectorBuilder().withNodeSelectorTerms(new NodeSelectorTermBuilder()
            .withMatchExpressions(
                new NodeSelectorRequirementBuilder().withKey("region").withOperator("In")
                    .withValues("region-1").build(),
                new NodeSelectorRequirementBuilder().withKey("planet").withOperator("In")
                    .withValues("earth").build())
            .withMatchFields(new NodeSelectorRequirementBuilder().withKey("metadata.name")
                .withOperator("In").withValues("node-1").build())
            .build()).build());
  }

  private static ResourceSlice networkSlice(String name, String pool) {
    ResourceSlice slice = slice(name, "driver-a", pool, device("device-1"));
    slice.getSpec().setNodeName(null);
    return slice;
  }

  @Test
  void example7_incompletePoolIsUnsatisfiableForExactCount() {
    ResourceSlice slice = slice("slice-1", "driver-a", "pool-1", device("device-1"));
    slice.getSpec().getPool().setResourceSliceCount(2L);

    AllocationOutcome outcome = allocator().allocate(claim("claim-0", request("req-0", "class-a")),
        inputs().deviceClasses(classA()).slices(slice).build());

    assertThat(outcome)
        .isEqualTo(new AllocationOutcome.Unsatisfiable("cannot allocate all claims"));
  }

  @Test
  void example7_incompletePoolFailsAllModeWithBeingUpdated() {
    ResourceSlice slice = slice("slice-1", "driver-a", "pool-1", device("device-1"));
    slice.getSpec().getPool().setResourceSliceCount(2L);

    AllocationOutcome outcome = allocator().allocate(
        claim("claim-0", request("req-0", exactly("class-a").withAllocationMode("All"))),
        inputs().deviceClasses(classA()).slices(slice).build());

    assertThat(outcome).isEqualTo(new AllocationOutcome.Failed(
        "claim default/claim-0, request req-0:"
            + " asks for all devices, but resource pool driver-a/pool-1 is currently being updated",
        false));
  }
}
