package io.github.dra4j.structured;

import static io.github.dra4j.structured.DraObjects.allocated;
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
import static io.github.dra4j.structured.DraObjects.results;
import static io.github.dra4j.structured.DraObjects.slice;
import static io.github.dra4j.structured.DraObjects.version;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraintBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The search for devices: devices already allocated, several claims all or nothing, admin access,
 * first-available lists and backtracking, all mode, constraints, and the step limit.
 */
class SearchTest {

  private static final AllocationOutcome CANNOT = new AllocationOutcome.Unsatisfiable(
      "cannot allocate all claims");

  private static AllocatorInputs.Builder twoDevices() {
    return inputs().deviceClasses(classA())
        .slices(slice("slice-1", "driver-a", "pool-1", device("device-1"), device("device-2")));
  }

  private static List<String> picksOf(AllocationOutcome outcome, int claim) {
    return allocated(outcome).claims().get(claim).getStatus().getAllocation().getDevices()
        .getResults()
        .stream().map(r -> r.getRequest() + "→" + r.getDevice()).toList();
  }

  @Test
  void devicesHeldByAllocatedClaimsAreSkipped() {
    ResourceClaim first = allocated(
        allocator().allocate(claim("first", request("req-0", "class-a")),
            twoDevices().build()))
        .claim();
    AllocationOutcome second = allocator().allocate(claim("second", request("req-0", "class-a")),
        twoDevices().allocatedClaims(first).build());
    assertThat(picks(second)).containsExactly("req-0→device-2");
    ResourceClaim held = allocated(second).claim();
    assertThat(allocator().allocate(claim("third", request("req-0", "class-a")),
        twoDevices().allocatedClaims(first, held).build())).isEqualTo(CANNOT);
  }

  @Test
  void severalClaimsAreAllOrNothing() {
    ResourceClaim a = claim("a", request("req-0", exactly("class-a").withCount(2L)));
    ResourceClaim b = claim("b", request("req-0", "class-a"));
    assertThat(allocator().allocate(List.of(a, b), twoDevices().build())).isEqualTo(CANNOT);
    AllocationOutcome both = allocator().allocate(
        List.of(b, claim("c", request("req-0", "class-a"))),
        twoDevices().build());
    assertThat(picksOf(both, 0)).containsExactly("req-0→device-1");
    assertThat(picksOf(both, 1)).containsExactly("req-0→device-2");
  }

  @Test
  void aPlainClaimAndALaterAdminClaimShareADevice() {
    ResourceClaim plain = claim("plain", request("req-0", "class-a"));
    ResourceClaim admin = claim("admin",
        request("req-0", exactly("class-a").withAdminAccess(true)));
    AllocationOutcome outcome = allocator().allocate(List.of(plain, admin),
        inputs().deviceClasses(classA())
            .slices(slice("slice-1", "driver-a", "pool-1", device("device-1"))).build());
    assertThat(picksOf(outcome, 0)).containsExactly("req-0→device-1");
    assertThat(picksOf(outcome, 1)).containsExactly("req-0→device-1");
    assertThat(
        allocated(outcome).claims().get(1).getStatus().getAllocation().getDevices().getResults()
            .get(0).getAdminAccess())
        .isTrue();
    assertThat(
        allocated(outcome).claims().get(0).getStatus().getAllocation().getDevices().getResults()
            .get(0).getAdminAccess())
        .isNull();
  }

  @Test
  void anAdminChoiceBlocksALaterPlainClaimButAdminResultsDoNotCountAsAllocated() {
    AllocatorInputs one = inputs().deviceClasses(classA())
        .slices(slice("slice-1", "driver-a", "pool-1", device("device-1"))).build();
    ResourceClaim admin = claim("admin",
        request("req-0", exactly("class-a").withAdminAccess(true)));
    ResourceClaim plain = claim("plain", request("req-0", "class-a"));
    assertThat(allocator().allocate(List.of(admin, plain), one)).isEqualTo(CANNOT);

    ResourceClaim adminDone = allocated(allocator().allocate(admin, one)).claim();
    assertThat(
        picks(allocator().allocate(plain, one.toBuilder().allocatedClaims(adminDone).build())))
        .containsExactly("req-0→device-1");
  }

  @Test
  void adminRequestsMayUseAllocatedDevices() {
    AllocatorInputs one = inputs().deviceClasses(classA())
        .slices(slice("slice-1", "driver-a", "pool-1", device("device-1"))).build();
    ResourceClaim holder = allocated(
        allocator().allocate(claim("holder", request("req-0", "class-a")), one)).claim();
    AllocationOutcome admin = allocator().allocate(
        claim("admin", request("req-0", exactly("class-a").withAdminAccess(true))),
        one.toBuilder().allocatedClaims(holder).build());
    assertThat(picks(admin)).containsExactly("req-0→device-1");
  }

  @Test
  void firstAvailableSkipsASubrequestThatWouldExceedTheResultLimit() {
    ResourceClaim claim = claim("claim-0", new DeviceRequestBuilder()
        .withName("req-0").withFirstAvailable(
            new DeviceSubRequestBuilder().withName("huge").withDeviceClassName("class-a")
                .withCount(500L).build(),
            new DeviceSubRequestBuilder().withName("small").withDeviceClassName("class-a").build())
        .build());
    assertThat(picks(allocator().allocate(claim, twoDevices().build())))
        .containsExactly("req-0/small→device-1");
  }

  @Test
  void laterRequestsBacktrackIntoAnEarlierSubrequestList() {
    ResourceSlice slice = slice("slice-1", "driver-a", "pool-1", device("device-1"));
    ResourceSlice other = slice("slice-2", "driver-b", "pool-2", device("device-9"));
    ResourceClaim claim = claim("claim-0",
        new DeviceRequestBuilder().withName("req-0").withFirstAvailable(
            new DeviceSubRequestBuilder().withName("a").withDeviceClassName("class-a").build(),
            new DeviceSubRequestBuilder().withName("b").withDeviceClassName("class-b").build())
            .build(),
        request("req-1", "class-a"));
    AllocationOutcome outcome = allocator().allocate(claim, inputs()
        .deviceClasses(classA(), deviceClass("class-b", "device.driver == \"driver-b\""))
        .slices(slice, other).build());
    assertThat(picks(outcome)).containsExactly("req-0/b→device-9", "req-1→device-1");
  }

  @Test
  void allModeTakesEverySelectableDevice() {
    ResourceSlice mixed = slice("slice-1", "driver-a", "pool-1", device("device-1"),
        device("device-2"));
    ResourceSlice foreign = slice("slice-2", "driver-b", "pool-2", device("device-3"));
    AllocationOutcome outcome = allocator().allocate(
        claim("claim-0", request("req-0", exactly("class-a").withAllocationMode("All"))),
        inputs().deviceClasses(classA()).slices(mixed, foreign).build());
    assertThat(picks(outcome)).containsExactly("req-0→device-1", "req-0→device-2");
  }

  private static ResourceClaim constrained(String attribute, long count, String... requests) {
    ResourceClaim claim = claim("claim-0", request("req-0", exactly("class-a").withCount(count)));
    claim.getSpec().getDevices().setConstraints(List.of(new DeviceConstraintBuilder()
        .withRequests(requests).withMatchAttribute(attribute).build()));
    return claim;
  }

  private static ResourceSlice numa(long... nodes) {
    ResourceSlice slice = slice("slice-1", "driver-a", "pool-1",
        new io.fabric8.kubernetes.api.model.resource.v1.Device[0]);
    for (int i = 0; i < nodes.length; i++) {
      slice.getSpec().getDevices()
          .add(device("device-" + (i + 1)).addToAttributes("numa", integer(nodes[i])).build());
    }
    return slice;
  }

  @Test
  void matchAttributePicksDevicesWithTheSameValue() {
    AllocationOutcome outcome = allocator().allocate(constrained("driver-a/numa", 2),
        inputs().deviceClasses(classA()).slices(numa(0, 1, 1)).build());
    assertThat(picks(outcome)).containsExactly("req-0→device-2", "req-0→device-3");
  }

  @Test
  void aConstraintForOtherRequestsDoesNotApply() {
    AllocationOutcome outcome = allocator().allocate(constrained("driver-a/numa", 2, "req-9"),
        inputs().deviceClasses(classA()).slices(numa(0, 1, 1)).build());
    assertThat(picks(outcome)).containsExactly("req-0→device-1", "req-0→device-2");
  }

  @Test
  void aForeignDomainIsOnlyFoundWhenSpelledOut() {
    ResourceSlice slice = slice("slice-1", "driver-a", "pool-1",
        device("device-1").addToAttributes("numa", integer(0)),
        device("device-2").addToAttributes("other.example.com/numa", integer(0)),
        device("device-3").addToAttributes("other.example.com/numa", integer(0)));
    AllocationOutcome outcome = allocator().allocate(constrained("other.example.com/numa", 2),
        inputs().deviceClasses(classA()).slices(slice).build());
    assertThat(picks(outcome)).containsExactly("req-0→device-2", "req-0→device-3");
  }

  @Test
  void versionsAreComparedAsText() {
    ResourceSlice slice = slice("slice-1", "driver-a", "pool-1",
        device("device-1").addToAttributes("fw", version("1.0.0")),
        device("device-2").addToAttributes("fw", version("1.0.0+b")));
    assertThat(allocator().allocate(constrained("driver-a/fw", 2),
        inputs().deviceClasses(classA()).slices(slice).build())).isEqualTo(CANNOT);
  }

  @Test
  void allModeWithAConflictingConstraintIsAnError() {
    ResourceClaim claim = claim("claim-0",
        request("req-0", exactly("class-a").withAllocationMode("All")));
    claim.getSpec().getDevices().setConstraints(List.of(
        new DeviceConstraintBuilder().withMatchAttribute("driver-a/numa").build()));
    assertThat(
        allocator().allocate(claim, inputs().deviceClasses(classA()).slices(numa(0, 1)).build()))
        .isEqualTo(new AllocationOutcome.Failed(
            "claim default/claim-0, request req-0: cannot add device"
                + " driver-a/pool-1/device-2 because a claim constraint would not be satisfied",
            false));
  }

  @Test
  void distinctAttributeRemembersOnlyTheLatestDeviceOfARequest() {
    ResourceClaim claim = claim("claim-0", request("req-0", exactly("class-a").withCount(3L)));
    claim.getSpec().getDevices().setConstraints(List.of(
        new DeviceConstraintBuilder().withDistinctAttribute("driver-a/numa").build()));
    assertThat(picks(allocator().allocate(claim,
        inputs().deviceClasses(classA()).slices(numa(0, 1, 0)).build())))
        .containsExactly("req-0→device-1", "req-0→device-2", "req-0→device-3");
  }

  @Test
  void distinctAttributeSeparatesRequests() {
    ResourceClaim claim = claim("claim-0", request("req-0", "class-a"),
        request("req-1", "class-a"));
    claim.getSpec().getDevices().setConstraints(List.of(
        new DeviceConstraintBuilder().withDistinctAttribute("driver-a/numa").build()));
    assertThat(picks(allocator().allocate(claim,
        inputs().deviceClasses(classA()).slices(numa(0, 0, 1)).build())))
        .containsExactly("req-0→device-1", "req-1→device-3");
  }

  @Test
  void theInputClaimIsNotChanged() {
    ResourceClaim claim = claim("claim-0", request("req-0", "class-a"));
    String before = claim.toString();
    AllocationOutcome outcome = allocator().allocate(claim, twoDevices().build());
    assertThat(claim.toString()).isEqualTo(before);
    assertThat(results(outcome)).hasSize(1);
    assertThat(allocated(outcome).claim()).isNotSameAs(claim);
  }

  @Test
  void aHopelessSearchIsCutOffAtTheStepLimit() {
    ResourceClaim claim = constrained("driver-a/numa", 5);
    AllocatorInputs inputs = inputs().deviceClasses(classA())
        .slices(numa(0, 1, 2, 3, 4, 5, 6, 7, 8, 9)).build();
    assertThat(allocator().allocate(claim, inputs)).isEqualTo(CANNOT);
    StructuredAllocator impatient = StructuredAllocator.builder()
        .selectorEnvironment(DraObjects.CEL)
        .searchStepLimit(20).build();
    assertThat(impatient.allocate(claim, inputs)).isEqualTo(new AllocationOutcome.Failed(
        "filter operation aborted: the search tried more than 20 device placements", false));
  }
}
