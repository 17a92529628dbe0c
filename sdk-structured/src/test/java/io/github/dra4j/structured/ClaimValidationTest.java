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
import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTolerationBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What the allocator checks in a claim before it searches (features a request needs, classes,
 * selectors, constraints, the device count limit, claims already allocated) and its error texts.
 */
class ClaimValidationTest {

  private static final String C = "claim default/claim-0";

  private static AllocatorInputs oneDevice() {
    return inputs().deviceClasses(classA())
        .slices(slice("slice-1", "driver-a", "pool-1", device("device-1"), device("device-2")))
        .build();
  }

  private static AllocationOutcome failed(String message) {
    return new AllocationOutcome.Failed(message, false);
  }

  private static ResourceClaim withSubrequests() {
    return claim("claim-0", new DeviceRequestBuilder().withName("req-0").withFirstAvailable(
        new DeviceSubRequestBuilder().withName("sub-0").withDeviceClassName("class-a").build())
        .build());
  }

  @Test
  void subrequestsNeedThePrioritizedListFeature() {
    assertThat(allocator(AllocatorFeatures.ALL.withPrioritizedList(false))
        .allocate(withSubrequests(), oneDevice()))
        .isEqualTo(failed(C
            + ", request req-0: has subrequests, but the DRAPrioritizedList feature is disabled"));
  }

  @Test
  void capacityRequestsNeedTheConsumableCapacityFeature() {
    CapacityRequirementsBuilder memory = new CapacityRequirementsBuilder()
        .addToRequests("memory", new Quantity("1Gi"));
    AllocatorFeatures off = AllocatorFeatures.ALL.withConsumableCapacity(false);
    assertThat(allocator(off).allocate(
        claim("claim-0", request("req-0", exactly("class-a").withCapacity(memory.build()))),
        oneDevice()))
        .isEqualTo(failed(C
            + ", request req-0: has capacity requests, but the DRAConsumableCapacity feature is disabled"));
    assertThat(allocator(off).allocate(claim("claim-0", new DeviceRequestBuilder().withName("req-0")
        .withFirstAvailable(
            new DeviceSubRequestBuilder().withName("sub-0").withDeviceClassName("class-a")
                .withCapacity(memory.build()).build())
        .build()), oneDevice()))
        .isEqualTo(failed(C
            + ", subrequest sub-0: has capacity requests, but the DRAConsumableCapacity feature is disabled"));
  }

  @Test
  void aSelectorWithoutCelIsRefused() {
    assertThat(allocator().allocate(
        claim("claim-0", request("req-0", exactly("class-a").withSelectors(new DeviceSelector()))),
        oneDevice()))
        .isEqualTo(failed(
            C + ", request req-0, selector #0: CEL expression empty (unsupported selector type?)"));
  }

  @Test
  void adminAccessEvenFalseNeedsTheFeature() {
    assertThat(allocator(AllocatorFeatures.ALL.withAdminAccess(false)).allocate(
        claim("claim-0", request("req-0", exactly("class-a").withAdminAccess(false))), oneDevice()))
        .isEqualTo(
            failed(C + ", request req-0: admin access is requested, but the feature is disabled"));
  }

  @Test
  void missingAndUnknownClassesAreNamed() {
    assertThat(allocator().allocate(claim("claim-0", request("req-0", exactly(""))), oneDevice()))
        .isEqualTo(
            failed(C + ", request req-0: missing device class name (unsupported request type?)"));
    assertThat(allocator().allocate(claim("claim-0", request("req-0", "nope")), oneDevice()))
        .isEqualTo(failed(C + ", request req-0: could not retrieve device class nope:"
            + " deviceclass.resource.k8s.io \"nope\" not found"));
  }

  @Test
  void subrequestMessagesUseTheSubrequestsOwnName() {
    ResourceClaim claim = claim("claim-0",
        new DeviceRequestBuilder().withName("req-0").withFirstAvailable(
            new DeviceSubRequestBuilder().withName("sub-0").withDeviceClassName("nope").build())
            .build());
    assertThat(allocator().allocate(claim, oneDevice()).failureReason())
        .hasValue(C + ", request sub-0: could not retrieve device class nope:"
            + " deviceclass.resource.k8s.io \"nope\" not found");
  }

  @Test
  void moreThan32DevicesPerClaimIsAnError() {
    assertThat(allocator().allocate(claim("claim-0",
        request("req-0", exactly("class-a").withCount(30L)),
        request("req-1", exactly("class-a").withCount(3L))), oneDevice()))
        .isEqualTo(failed(C + ": number of requested devices 33 exceeds the claim limit of 32"));
  }

  @Test
  void aConstraintWithoutTypeIsRefused() {
    ResourceClaim claim = claim("claim-0", request("req-0", "class-a"));
    claim.getSpec().getDevices().setConstraints(List.of(new DeviceConstraint()));
    assertThat(allocator().allocate(claim, oneDevice()))
        .isEqualTo(failed(C + ", constraint #0: empty constraint (unsupported constraint type?)"));
  }

  @Test
  void withoutApiDefaultsAnEmptyModeFailsWithItsEmptyName() {
    StructuredAllocator raw = StructuredAllocator.builder().selectorEnvironment(CEL)
        .applyApiDefaults(false).build();
    assertThat(raw.allocate(claim("claim-0", request("req-0", "class-a")), oneDevice()))
        .isEqualTo(failed(C + ", request req-0: unsupported count mode "));
    AllocationOutcome zero = raw.allocate(
        claim("claim-0",
            request("req-0", exactly("class-a").withAllocationMode("ExactCount").withCount(0L))),
        oneDevice());
    assertThat(results(zero)).isEmpty();
  }

  @Test
  void apiDefaultsGiveOneDeviceAndTheEqualOperator() {
    ResourceClaim claim = claim("claim-0", request("req-0", exactly("class-a")
        .withTolerations(new DeviceTolerationBuilder().withKey("k").withValue("v").build())));
    AllocationOutcome outcome = allocator().allocate(claim, oneDevice());
    assertThat(picks(outcome)).containsExactly("req-0→device-1");
    assertThat(results(outcome).get(0).getTolerations().get(0).getOperator()).isEqualTo("Equal");
    assertThat(claim.getSpec().getDevices().getRequests().get(0).getExactly().getAllocationMode())
        .isNull();
    assertThat(claim.getStatus()).isNull();
  }

  @Test
  void anAlreadyAllocatedClaimIsRefused() {
    ResourceClaim done = allocated(
        allocator().allocate(claim("claim-0", request("req-0", "class-a")),
            oneDevice()))
        .claim();
    assertThat(allocator().allocate(done, oneDevice()))
        .isEqualTo(failed(C + ": is already allocated"));
  }

  @Test
  void aCapacityRequestThatIsNotAQuantityNamesTheRequestAndValue() {
    ResourceClaim claim = claim("claim-0", request("req-0", exactly("class-a").withCapacity(
        new CapacityRequirementsBuilder().withRequests(Map.of("memory", new Quantity("lots")))
            .build())));
    assertThat(allocator().allocate(claim, oneDevice()).failureReason())
        .hasValueSatisfying(reason -> assertThat(reason)
            .startsWith(C + ", request req-0: capacity request memory: value \"lots\":"
                + " quantities must match the regular expression"));
  }

  @Test
  void aClaimWithoutRequestsGetsAnEmptyAllocation() {
    ResourceClaim empty = new ResourceClaimBuilder().withNewMetadata().withName("empty")
        .endMetadata()
        .withNewSpec().withNewDevices().endDevices().endSpec().build();
    AllocationOutcome outcome = allocator().allocate(empty, oneDevice());
    assertThat(results(outcome)).isEmpty();
    assertThat(allocated(outcome).claim().getStatus().getAllocation().getNodeSelector()).isNull();
  }
}
