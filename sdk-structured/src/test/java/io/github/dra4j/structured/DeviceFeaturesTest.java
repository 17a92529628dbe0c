package io.github.dra4j.structured;

import static io.github.dra4j.structured.DraObjects.CEL;
import static io.github.dra4j.structured.DraObjects.allocated;
import static io.github.dra4j.structured.DraObjects.allocator;
import static io.github.dra4j.structured.DraObjects.claim;
import static io.github.dra4j.structured.DraObjects.classA;
import static io.github.dra4j.structured.DraObjects.device;
import static io.github.dra4j.structured.DraObjects.exactly;
import static io.github.dra4j.structured.DraObjects.inputs;
import static io.github.dra4j.structured.DraObjects.picks;
import static io.github.dra4j.structured.DraObjects.request;
import static io.github.dra4j.structured.DraObjects.results;
import static io.github.dra4j.structured.DraObjects.slice;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequirementsBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacityBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTolerationBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Device taints, consumable capacity and shared counters, beyond {@link WorkedExamplesTest}. */
class DeviceFeaturesTest {

  private static final AllocationOutcome CANNOT = new AllocationOutcome.Unsatisfiable(
      "cannot allocate all claims");

  private static ResourceSlice tainted(String effect) {
    return slice("slice-1", "driver-a", "pool-1", device("device-1")
        .withTaints(
            new DeviceTaintBuilder().withKey("k").withValue("v").withEffect(effect).build()));
  }

  private static AllocationOutcome allocateOne(StructuredAllocator allocator, ResourceClaim claim,
      ResourceSlice slice) {
    return allocator.allocate(claim, inputs().deviceClasses(classA()).slices(slice).build());
  }

  @Test
  void onlyNoScheduleAndNoExecuteTaintsBlock() {
    ResourceClaim plain = claim("claim-0", request("req-0", "class-a"));
    assertThat(allocateOne(allocator(), plain, tainted("NoSchedule"))).isEqualTo(CANNOT);
    assertThat(allocateOne(allocator(), plain, tainted("NoExecute"))).isEqualTo(CANNOT);
    assertThat(picks(allocateOne(allocator(), plain, tainted("None"))))
        .containsExactly("req-0→device-1");
    assertThat(picks(allocateOne(allocator(), plain, tainted("PreferNoSchedule"))))
        .containsExactly("req-0→device-1");
  }

  @Test
  void anExistsTolerationWithoutKeyToleratesEverything() {
    ResourceClaim tolerant = claim("claim-0", request("req-0", exactly("class-a")
        .withTolerations(new DeviceTolerationBuilder().withOperator("Exists").build())));
    assertThat(picks(allocateOne(allocator(), tolerant, tainted("NoExecute"))))
        .containsExactly("req-0→device-1");
    ResourceClaim wrongValue = claim("claim-0", request("req-0", exactly("class-a")
        .withTolerations(new DeviceTolerationBuilder().withKey("k").withValue("w").build())));
    assertThat(allocateOne(allocator(), wrongValue, tainted("NoExecute"))).isEqualTo(CANNOT);
  }

  @Test
  void withoutTheTaintFeatureTaintsAreIgnoredButTolerationsStillCopied() {
    ResourceClaim claim = claim("claim-0", request("req-0", exactly("class-a")
        .withTolerations(
            new DeviceTolerationBuilder().withKey("other").withOperator("Exists").build())));
    AllocationOutcome outcome = allocateOne(
        allocator(AllocatorFeatures.ALL.withDeviceTaints(false)), claim,
        tainted("NoSchedule"));
    assertThat(picks(outcome)).containsExactly("req-0→device-1");
    assertThat(results(outcome).get(0).getTolerations()).hasSize(1);
  }

  @Test
  void anUntoleratedDeviceInAnAllListMakesTheRequestUnsatisfiable() {
    assertThat(allocateOne(allocator(), claim("claim-0", request("req-0",
        exactly("class-a").withAllocationMode("All"))), tainted("NoSchedule"))).isEqualTo(CANNOT);
  }

  private static DeviceBuilder sharedGpu() {
    return device("gpu-0").withAllowMultipleAllocations(true).addToCapacity("memory",
        new DeviceCapacityBuilder().withValue(new Quantity("8Gi")).withNewRequestPolicy()
            .withDefault(new Quantity("1Gi"))
            .withNewValidRange().withMin(new Quantity("1Gi")).withStep(new Quantity("1Gi"))
            .endValidRange()
            .endRequestPolicy().build());
  }

  private static ResourceClaim asking(String name, String memory) {
    return claim(name, request("req-0", exactly("class-a").withCapacity(
        new CapacityRequirementsBuilder().withRequests(Map.of("memory", new Quantity(memory)))
            .build())));
  }

  @Test
  void consumableCapacityRoundsUpToTheStepAndSharesTheDevice() {
    AtomicInteger ids = new AtomicInteger();
    StructuredAllocator allocator = StructuredAllocator.builder().selectorEnvironment(CEL)
        .shareIds(() -> "share-" + ids.incrementAndGet()).build();
    ResourceSlice slice = slice("slice-1", "driver-a", "pool-1", sharedGpu());

    AllocationOutcome first = allocateOne(allocator, asking("claim-1", "1500Mi"), slice);
    DeviceRequestAllocationResult r1 = results(first).get(0);
    assertThat(r1.getDevice()).isEqualTo("gpu-0");
    assertThat(r1.getShareID()).isEqualTo("share-1");
    assertThat(r1.getConsumedCapacity()).isEqualTo(Map.of("memory", new Quantity("2Gi")));

    AllocationOutcome second = allocator.allocate(claim("claim-2", request("req-0", "class-a")),
        inputs().deviceClasses(classA()).slices(slice).allocatedClaims(allocated(first).claim())
            .build());
    DeviceRequestAllocationResult r2 = results(second).get(0);
    assertThat(r2.getDevice()).isEqualTo("gpu-0");
    assertThat(r2.getShareID()).isEqualTo("share-2");
    assertThat(r2.getConsumedCapacity()).isEqualTo(Map.of("memory", new Quantity("1Gi")));
  }

  @Test
  void sharedCapacityRunsOut() {
    ResourceSlice slice = slice("slice-1", "driver-a", "pool-1", sharedGpu());
    AllocatorInputs.Builder inputs = inputs().deviceClasses(classA()).slices(slice);
    ResourceClaim big = allocated(allocator().allocate(asking("big", "7Gi"), inputs.build()))
        .claim();
    AllocatorInputs withBig = inputs.allocatedClaims(big).build();
    assertThat(allocator().allocate(asking("too-much", "1500Mi"), withBig)).isEqualTo(CANNOT);
    assertThat(picks(allocator().allocate(asking("fits", "1Gi"), withBig)))
        .containsExactly("req-0→gpu-0");
  }

  @Test
  void twoRequestsOfOneClaimCanShareADevice() {
    ResourceClaim claim = claim("claim-0", request("req-0", "class-a"),
        request("req-1", "class-a"));
    AllocationOutcome outcome = allocateOne(allocator(), claim,
        slice("slice-1", "driver-a", "pool-1", sharedGpu()));
    assertThat(picks(outcome)).containsExactly("req-0→gpu-0", "req-1→gpu-0");
    assertThat(results(outcome).get(0).getShareID())
        .isNotEqualTo(results(outcome).get(1).getShareID());
  }

  @Test
  void aRequestAboveTheRangeOrForAMissingCapacitySkipsTheDevice() {
    ResourceSlice slice = slice("slice-1", "driver-a", "pool-1", sharedGpu());
    assertThat(allocateOne(allocator(), asking("claim-0", "9Gi"), slice)).isEqualTo(CANNOT);
    ResourceClaim wrongName = claim("claim-0", request("req-0", exactly("class-a").withCapacity(
        new CapacityRequirementsBuilder().withRequests(Map.of("cores", new Quantity("1")))
            .build())));
    assertThat(allocateOne(allocator(), wrongName, slice)).isEqualTo(CANNOT);
  }

  @Test
  void aShareableDeviceHeldExclusivelyIsUnavailable() {
    ResourceSlice slice = slice("slice-1", "driver-a", "pool-1", sharedGpu());
    StructuredAllocator exclusive = allocator(AllocatorFeatures.ALL.withConsumableCapacity(false));
    ResourceClaim holder = allocated(
        exclusive.allocate(claim("holder", request("req-0", "class-a")),
            inputs().deviceClasses(classA()).slices(slice).build()))
        .claim();
    assertThat(results(new AllocationOutcome.Allocated(List.of(holder))).get(0).getShareID())
        .isNull();
    assertThat(allocator().allocate(claim("next", request("req-0", "class-a")),
        inputs().deviceClasses(classA()).slices(slice).allocatedClaims(holder).build()))
        .isEqualTo(CANNOT);
  }

  @Test
  void validValuesRoundUpToTheNextListedAmount() {
    ResourceSlice slice = slice("slice-1", "driver-a", "pool-1",
        device("nic-0").withAllowMultipleAllocations(true)
            .addToCapacity("bandwidth", new DeviceCapacityBuilder().withValue(new Quantity("100G"))
                .withNewRequestPolicy().withValidValues(new Quantity("10G"), new Quantity("25G"))
                .endRequestPolicy().build()));
    ResourceClaim claim = claim("claim-0", request("req-0", exactly("class-a").withCapacity(
        new CapacityRequirementsBuilder().withRequests(Map.of("bandwidth", new Quantity("12G")))
            .build())));
    assertThat(results(allocateOne(allocator(), claim, slice)).get(0).getConsumedCapacity())
        .isEqualTo(Map.of("bandwidth", new Quantity("25G")));
  }

  @Test
  void withoutPartitionableDevicesCounterConsumersAreNeverAllocated() {
    List<ResourceSlice> slices = WorkedExamplesTest.counterPool("1Gi");
    AllocationOutcome outcome = allocator(AllocatorFeatures.ALL.withPartitionableDevices(false))
        .allocate(claim("claim-0", request("req-0", "class-a")),
            inputs().deviceClasses(classA()).slices(slices).build());
    assertThat(outcome).isEqualTo(CANNOT);
  }

  @Test
  void countersAreFreedWhenTheSearchBacktracks() {
    List<ResourceSlice> slices = WorkedExamplesTest.counterPool("5Gi", "4Gi", "4Gi", "3Gi");
    AllocationOutcome outcome = allocator().allocate(
        claim("claim-0", request("req-0", exactly("class-a").withCount(3L))),
        inputs().deviceClasses(classA()).slices(slices).build());
    assertThat(outcome).isEqualTo(CANNOT);
    AllocationOutcome two = allocator().allocate(
        claim("claim-0", request("req-0", exactly("class-a").withCount(2L))),
        inputs().deviceClasses(classA()).slices(slices).build());
    assertThat(picks(two)).containsExactly("req-0→device-1", "req-0→device-4");
  }
}
