package io.github.dra4j.structured;

import static io.github.dra4j.structured.DraObjects.allocator;
import static io.github.dra4j.structured.DraObjects.claim;
import static io.github.dra4j.structured.DraObjects.classA;
import static io.github.dra4j.structured.DraObjects.consuming;
import static io.github.dra4j.structured.DraObjects.device;
import static io.github.dra4j.structured.DraObjects.exactly;
import static io.github.dra4j.structured.DraObjects.inputs;
import static io.github.dra4j.structured.DraObjects.picks;
import static io.github.dra4j.structured.DraObjects.request;
import static io.github.dra4j.structured.DraObjects.results;
import static io.github.dra4j.structured.DraObjects.slice;
import static io.github.dra4j.structured.DraObjects.withCapacity;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NodeSelectorBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorTermBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import org.junit.jupiter.api.Test;

/**
 * Gathering the pools a node can use from all slices (node-local, node-selected and per-device
 * node selection, newest generation, complete or not, valid or not) and its effect on allocation.
 */
class PoolGatheringTest {

  private static final ResourceClaim ONE = claim("claim-0", request("req-0", "class-a"));
  private static final AllocationOutcome CANNOT = new AllocationOutcome.Unsatisfiable(
      "cannot allocate all claims");

  private static AllocationOutcome allocate(ResourceSlice... slices) {
    return allocator().allocate(ONE, inputs().deviceClasses(classA()).slices(slices).build());
  }

  private static ResourceSlice generation(ResourceSlice slice, long generation, long count) {
    slice.getSpec().getPool().setGeneration(generation);
    slice.getSpec().getPool().setResourceSliceCount(count);
    return slice;
  }

  @Test
  void slicesOfOtherNodesAreNotCandidates() {
    ResourceSlice other = slice("slice-1", "driver-a", "pool-1", device("device-1"));
    other.getSpec().setNodeName("node-2");
    assertThat(allocate(other)).isEqualTo(CANNOT);
  }

  @Test
  void theNewestGenerationReplacesOlderSlicesOfThePool() {
    ResourceSlice old = generation(slice("slice-a", "driver-a", "pool-1", device("old-device")), 1,
        1);
    ResourceSlice current = generation(slice("slice-b", "driver-a", "pool-1", device("new-device")),
        2, 1);
    assertThat(picks(allocate(old, current))).containsExactly("req-0→new-device");
    assertThat(picks(allocate(current, old))).containsExactly("req-0→new-device");
  }

  @Test
  void aStaleLocalSliceIsDroppedWhenANewerGenerationExistsElsewhere() {
    ResourceSlice stale = generation(slice("slice-a", "driver-a", "pool-1", device("device-1")), 1,
        2);
    ResourceSlice newer = generation(slice("slice-b", "driver-a", "pool-1", device("device-9")), 2,
        2);
    newer.getSpec().setNodeName("node-2");
    assertThat(allocate(stale, newer)).isEqualTo(CANNOT);
  }

  @Test
  void aPoolIsCompleteWhenItsOtherSlicesAreOnOtherNodes() {
    ResourceSlice here = generation(slice("slice-a", "driver-a", "pool-1", device("device-1")), 3,
        2);
    ResourceSlice there = generation(slice("slice-b", "driver-a", "pool-1", device("device-2")), 3,
        2);
    there.getSpec().setNodeName("node-2");
    assertThat(picks(allocate(here, there))).containsExactly("req-0→device-1");
  }

  @Test
  void anInvalidPoolIsANodeLocalErrorNamingThePoolAndWhy() {
    ResourceSlice duplicate = slice("slice-1", "driver-a", "pool-1", device("device-1"),
        device("device-1"));
    AllocationOutcome outcome = allocate(duplicate);
    assertThat(outcome)
        .isEqualTo(new AllocationOutcome.Failed("invalid resource pools were encountered:"
            + " pool driver-a/pool-1: duplicate device name device-1", true));
  }

  @Test
  void anInvalidPoolIsFineWhenAnotherPoolProvidesTheDevices() {
    ResourceSlice duplicate = slice("slice-1", "driver-a", "pool-1", device("device-1"),
        device("device-1"));
    ResourceSlice good = slice("slice-2", "driver-a", "pool-2", device("device-7"));
    assertThat(picks(allocate(duplicate, good))).containsExactly("req-0→device-7");
  }

  @Test
  void aBadQuantityInASliceInvalidatesThePoolNamingTheFieldAndValue() {
    ResourceSlice bad = slice("slice-1", "driver-a", "pool-1",
        withCapacity(device("device-1"), "memory", "lots"));
    assertThat(allocate(bad).failureReason())
        .hasValueSatisfying(reason -> assertThat(reason).startsWith(
            "invalid resource pools were encountered: pool driver-a/pool-1: device driver-a/pool-1/device-1:"
                + " capacity memory: value \"lots\": quantities must match"));
  }

  @Test
  void anUnknownCounterSetInvalidatesThePoolAndAllModeSaysSo() {
    ResourceSlice bad = slice("slice-1", "driver-a", "pool-1",
        consuming(device("device-1"), "nope", "memory", "1Gi"));
    assertThat(allocate(bad).failureReason())
        .hasValue(
            "invalid resource pools were encountered: pool driver-a/pool-1: counter set nope not found");
    AllocationOutcome all = allocator().allocate(
        claim("claim-0", request("req-0", exactly("class-a").withAllocationMode("All"))),
        inputs().deviceClasses(classA()).slices(bad).build());
    assertThat(all.failureReason())
        .hasValue("claim default/claim-0, request req-0: asks for all devices,"
            + " but resource pool driver-a/pool-1 is currently invalid");
  }

  @Test
  void anUnparsableNodeSelectorAbortsNamingTheSlice() {
    ResourceSlice slice = slice("slice-1", "driver-a", "pool-1", device("device-1"));
    slice.getSpec().setNodeName(null);
    slice.getSpec().setNodeSelector(
        new NodeSelectorBuilder().withNodeSelectorTerms(new NodeSelectorTermBuilder()
            .withMatchExpressions(
                new NodeSelectorRequirementBuilder().withKey("cores").withOperator("Gt")
                    .withValues("many").build())
            .build()).build());
    assertThat(allocate(slice).failureReason())
        .hasValue("gather pool information: failed to perform node"
            + " selection for slice slice-1: failed to parse node selector: operator Gt on key \"cores\":"
            + " value \"many\" is not an integer");
  }

  @Test
  void perDeviceNodeSelectionChecksEachDevice() {
    ResourceSlice slice = slice("slice-1", "driver-a", "pool-1",
        device("device-1").withNodeName("node-2"),
        device("device-2").withAllNodes(true));
    slice.getSpec().setNodeName(null);
    slice.getSpec().setPerDeviceNodeSelection(true);
    AllocationOutcome outcome = allocate(slice);
    assertThat(picks(outcome)).containsExactly("req-0→device-2");
    assertThat(DraObjects.allocated(outcome).claim().getStatus().getAllocation().getNodeSelector())
        .isNull();
    assertThat(allocator(AllocatorFeatures.ALL.withPartitionableDevices(false))
        .allocate(ONE, inputs().deviceClasses(classA()).slices(slice).build())).isEqualTo(CANNOT);
  }

  @Test
  void poolsWithBindingConditionsAreSearchedLastAndTheirConditionsAreCopied() {
    ResourceSlice waiting = slice("slice-1", "driver-a", "pool-a",
        device("device-1").withBindingConditions("attached")
            .withBindingFailureConditions("failed"));
    ResourceSlice ready = slice("slice-2", "driver-a", "pool-b", device("device-2"));
    assertThat(picks(allocate(waiting, ready))).containsExactly("req-0→device-2");

    AllocationOutcome two = allocator().allocate(
        claim("claim-0", request("req-0", exactly("class-a").withCount(2L))),
        inputs().deviceClasses(classA()).slices(waiting, ready).build());
    assertThat(picks(two)).containsExactly("req-0→device-2", "req-0→device-1");
    assertThat(results(two).get(1).getBindingConditions()).containsExactly("attached");
    assertThat(results(two).get(1).getBindingFailureConditions()).containsExactly("failed");
  }

  @Test
  void withoutBindingConditionSupportSuchDevicesAreNeverSelected() {
    ResourceSlice waiting = slice("slice-1", "driver-a", "pool-a",
        device("device-1").withBindingConditions("attached"));
    assertThat(allocator(AllocatorFeatures.ALL.withDeviceBindingAndStatus(false))
        .allocate(ONE, inputs().deviceClasses(classA()).slices(waiting).build())).isEqualTo(CANNOT);
  }

  @Test
  void aSliceWithoutDevicesMakesAllModeUnsatisfiable() {
    ResourceSlice empty = slice("slice-1", "driver-a", "pool-1",
        new io.fabric8.kubernetes.api.model.resource.v1.Device[0]);
    AllocationOutcome outcome = allocator().allocate(
        claim("claim-0", request("req-0", exactly("class-a").withAllocationMode("All"))),
        inputs().deviceClasses(classA()).slices(empty).build());
    assertThat(outcome).isEqualTo(CANNOT);
  }

  @Test
  void aDeviceWithoutNameInvalidatesItsPoolAndASliceWithoutPoolIsIgnored() {
    ResourceSlice unnamed = slice("slice-1", "driver-a", "pool-1", device("device-1"), device(""));
    assertThat(allocate(unnamed).failureReason())
        .hasValue(
            "invalid resource pools were encountered: pool driver-a/pool-1: slice slice-1: device #1: name is missing");
    ResourceSlice poolless = slice("slice-2", "driver-a", "pool-2", device("device-2"));
    poolless.getSpec().setPool(null);
    ResourceSlice good = slice("slice-3", "driver-a", "pool-3", device("device-3"));
    assertThat(picks(allocate(poolless, good))).containsExactly("req-0→device-3");
  }
}
