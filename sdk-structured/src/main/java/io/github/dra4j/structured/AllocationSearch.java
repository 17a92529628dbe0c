package io.github.dra4j.structured;

import io.github.dra4j.core.quantity.QuantityValue;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The scheduler's depth-first search with backtracking: claims in order, requests in order,
 * devices one at a time in pool/slice/device order; the k-th device of a request is searched after
 * the (k-1)-th (combinations, not permutations); {@code firstAvailable} subrequests are tried in
 * order; the first complete solution wins. Mutable; owned by one attempt, single thread.
 */
final class AllocationSearch {

  /** How a branch of the search ended. */
  enum Outcome {
    DONE, FAILED, MAX_SIZE
  }

  /**
   * One chosen device.
   *
   * @param plan the request or subrequest it serves
   * @param device the device
   * @param shareId the share ID for a shareable device, else null
   * @param consumed the capacity it consumes for a shareable device, else null
   */
  record Choice(RequestPlan plan, PoolDevice device, String shareId,
      Map<String, QuantityValue> consumed) {}

  private final List<ClaimPlan> claims;
  private final List<PoolDevice> scanOrder;
  private final AllocatorFeatures features;
  private final AllocatedState allocated;
  private final SelectorMatcher matcher;
  private final CounterLedger counters;
  private final Supplier<String> shareIds;
  private final Map<DeviceId, Set<Integer>> chosenBy = new HashMap<>();
  private final Map<DeviceId, Integer> shares = new HashMap<>();
  private final Map<DeviceId, Map<String, QuantityValue>> sharedConsumption = new HashMap<>();
  private final List<List<Choice>> results = new ArrayList<>();
  private final int[][] selectedSub;
  private final long stepLimit;
  private long steps;

  AllocationSearch(
      List<ClaimPlan> claims,
      List<PoolDevice> scanOrder,
      AllocatorFeatures features,
      AllocatedState allocated,
      SelectorMatcher matcher,
      CounterLedger counters,
      Supplier<String> shareIds,
      long stepLimit) {
    this.claims = claims;
    this.scanOrder = scanOrder;
    this.features = features;
    this.allocated = allocated;
    this.matcher = matcher;
    this.counters = counters;
    this.shareIds = shareIds;
    this.stepLimit = stepLimit;
    this.selectedSub = new int[claims.size()][];
    for (int i = 0; i < claims.size(); i++) {
      results.add(new ArrayList<>());
      selectedSub[i] = new int[claims.get(i).requests().size()];
    }
  }

  /** Runs the search; on {@link Outcome#DONE} the choices are in {@link #results()}. */
  Outcome run() throws AllocationError {
    return next(0, 0, 0, 0, 0, false);
  }

  /** Returns the chosen devices per claim, in the order they were chosen. */
  List<List<Choice>> results() {
    return results;
  }

  /** Returns the plan used for a request of a claim (the chosen subrequest, if any). */
  RequestPlan chosenPlan(int claimIndex, int requestIndex) {
    return claims.get(claimIndex).requests().get(requestIndex)
        .get(selectedSub[claimIndex][requestIndex]);
  }

  private Outcome next(int claimIndex, int requestIndex, int subIndex, int deviceIndex, int start,
      boolean inSubrequest) throws AllocationError {
    if (claimIndex >= claims.size()) {
      return Outcome.DONE;
    }
    ClaimPlan claim = claims.get(claimIndex);
    if (requestIndex >= claim.requests().size()) {
      return next(claimIndex + 1, 0, 0, 0, 0, false);
    }
    List<RequestPlan> slot = claim.requests().get(requestIndex);
    if (slot.size() > 1 && !inSubrequest) {
      boolean allMaxSize = true;
      for (int sub = 0; sub < slot.size(); sub++) {
        Outcome outcome = next(claimIndex, requestIndex, sub, 0, 0, true);
        if (outcome == Outcome.DONE) {
          selectedSub[claimIndex][requestIndex] = sub;
          return outcome;
        }
        allMaxSize &= outcome == Outcome.MAX_SIZE;
      }
      return allMaxSize ? Outcome.MAX_SIZE : Outcome.FAILED;
    }
    RequestPlan plan = slot.get(subIndex);
    if (deviceIndex == 0 && plan.allDevices() != null && plan.allDevices().isEmpty()) {
      return Outcome.FAILED;
    }
    if (deviceIndex >= plan.numDevices()) {
      Outcome outcome = next(claimIndex, requestIndex + 1, 0, 0, 0, false);
      if (outcome == Outcome.DONE) {
        selectedSub[claimIndex][requestIndex] = subIndex;
      }
      return outcome;
    }
    if (results.get(claimIndex).size() + plan.numDevices()
        - deviceIndex > ClaimPlanner.MAX_RESULTS) {
      return Outcome.MAX_SIZE;
    }
    if (plan.allDevices() != null) {
      Runnable undo = tryChoose(claim, plan, plan.allDevices().get(deviceIndex), true);
      if (undo == null) {
        return Outcome.FAILED;
      }
      Outcome outcome = next(claimIndex, requestIndex, subIndex, deviceIndex + 1, 0, inSubrequest);
      if (outcome != Outcome.DONE) {
        undo.run();
      }
      return outcome;
    }
    for (int position = start; position < scanOrder.size(); position++) {
      if (++steps > stepLimit) {
        throw new AllocationError("filter operation aborted: the search tried more than "
            + stepLimit + " device placements");
      }
      PoolDevice device = scanOrder.get(position);
      if (!plan.adminAccess() && inUse(device)) {
        continue;
      }
      if (!matcher.selectable(claim, plan, device)) {
        continue;
      }
      Runnable undo = tryChoose(claim, plan, device, false);
      if (undo == null) {
        continue;
      }
      Outcome outcome = next(claimIndex, requestIndex, subIndex, deviceIndex + 1, position + 1,
          inSubrequest);
      if (outcome == Outcome.DONE) {
        return outcome;
      }
      undo.run();
      if (outcome == Outcome.MAX_SIZE) {
        return outcome;
      }
    }
    return Outcome.FAILED;
  }

  /** The cheap "in use" test done before selectors, for non-admin requests. */
  private boolean inUse(PoolDevice device) {
    if (allocated.exclusivelyAllocated(device.id())) {
      return true;
    }
    return !device.shareable(features) && !chosenBy.getOrDefault(device.id(), Set.of()).isEmpty();
  }

  /**
   * Tries to take a device for a request: availability, counters, taints, capacity, then the
   * claim's constraints. Returns the undo action, or null when the device cannot be taken.
   *
   * @param must true for {@code All} requests: a constraint refusing the device is an error
   */
  private Runnable tryChoose(ClaimPlan claim, RequestPlan plan, PoolDevice device, boolean must)
      throws AllocationError {
    DeviceId id = device.id();
    int claimIndex = plan.claimIndex();
    boolean shareable = device.shareable(features);
    Set<Integer> holders = chosenBy.getOrDefault(id, Set.of());
    if (plan.adminAccess()) {
      if (!shareable && holders.contains(claimIndex)) {
        return null;
      }
    } else if (allocated.exclusivelyAllocated(id) || (!shareable && !holders.isEmpty())) {
      return null;
    }
    boolean usesCounters = !device.counterUse().isEmpty();
    if (usesCounters && !features.partitionableDevices()) {
      return null;
    }
    boolean consumeCounters = usesCounters
        && !(shareable && (allocated.inUse(id) || shares.getOrDefault(id, 0) > 0));
    if (consumeCounters && !counters.tryConsume(device)) {
      return null;
    }
    Runnable releaseCounters = consumeCounters ? () -> counters.release(device) : () -> {};
    if (features.deviceTaints()
        && !Tolerations.allTolerated(NodeSelection.nonNull(device.device().getTaints()),
            plan.tolerations())) {
      releaseCounters.run();
      return null;
    }
    Map<String, QuantityValue> consumed = null;
    if (features.consumableCapacity()) {
      consumed = CapacityPolicy.consumption(plan.capacityRequests(), device, alreadyConsumed(id));
      if (consumed == null) {
        releaseCounters.run();
        return null;
      }
    }
    List<Constraint> constraints = claim.constraints();
    for (int i = 0; i < constraints.size(); i++) {
      if (!constraints.get(i).add(plan, device)) {
        if (must) {
          throw new AllocationError("claim " + claim.name() + ", request " + plan.resultName()
              + ": cannot add device " + id + " because a claim constraint would not be satisfied");
        }
        for (int j = 0; j < i; j++) {
          constraints.get(j).remove(plan, device);
        }
        releaseCounters.run();
        return null;
      }
    }
    return commit(claim, plan, device, shareable, consumed, releaseCounters);
  }

  private Runnable commit(ClaimPlan claim, RequestPlan plan, PoolDevice device, boolean shareable,
      Map<String, QuantityValue> consumed, Runnable releaseCounters) {
    DeviceId id = device.id();
    int claimIndex = plan.claimIndex();
    List<Choice> claimResults = results.get(claimIndex);
    if (shareable) {
      shares.merge(id, 1, Integer::sum);
      addConsumption(id, consumed, true);
      claimResults.add(new Choice(plan, device, shareIds.get(), consumed));
    } else {
      chosenBy.computeIfAbsent(id, k -> new HashSet<>()).add(claimIndex);
      claimResults.add(new Choice(plan, device, null, null));
    }
    int size = claimResults.size();
    return () -> {
      claimResults.remove(size - 1);
      if (shareable) {
        shares.merge(id, -1, Integer::sum);
        addConsumption(id, consumed, false);
      } else {
        chosenBy.get(id).remove(claimIndex);
      }
      for (Constraint constraint : claim.constraints()) {
        constraint.remove(plan, device);
      }
      releaseCounters.run();
    };
  }

  private Map<String, QuantityValue> alreadyConsumed(DeviceId id) {
    Map<String, QuantityValue> existing = allocated.consumed(id);
    Map<String, QuantityValue> attempt = sharedConsumption.get(id);
    if (attempt == null || attempt.isEmpty()) {
      return existing;
    }
    Map<String, QuantityValue> sum = new HashMap<>(existing);
    attempt.forEach((name, amount) -> sum.merge(name, amount, QuantityValue::add));
    return sum;
  }

  private void addConsumption(DeviceId id, Map<String, QuantityValue> consumed, boolean add) {
    if (consumed == null) {
      return;
    }
    Map<String, QuantityValue> totals = sharedConsumption.computeIfAbsent(id, k -> new HashMap<>());
    consumed.forEach((name, amount) -> totals.merge(name, amount,
        (current, delta) -> add ? current.add(delta) : current.subtract(delta)));
  }
}
