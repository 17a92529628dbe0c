package io.github.dra4j.structured;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.github.dra4j.cel.DeviceSelectorEnvironment;
import io.github.dra4j.structured.AllocationExplanation.ClaimExplanation;
import io.github.dra4j.structured.AllocationExplanation.DeviceVerdict;
import io.github.dra4j.structured.AllocationExplanation.Reason;
import io.github.dra4j.structured.AllocationExplanation.RequestExplanation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Builds an {@link AllocationExplanation}: plans every request (and subrequest) of each claim on
 * its own, so that one bad request does not hide the others, and lets a {@link DeviceJudge} judge
 * every device of the node's pools, and the matching devices of other nodes, against it. Runs
 * apart from the allocation search, which it never slows down. Used once, by one thread.
 */
final class AllocationExplainer {

  private final DeviceSelectorEnvironment environment;
  private final AllocatorFeatures features;
  private final boolean applyApiDefaults;
  private final Map<String, DeviceClass> classes;

  AllocationExplainer(DeviceSelectorEnvironment environment, AllocatorFeatures features,
      boolean applyApiDefaults, Map<String, DeviceClass> classes) {
    this.environment = environment;
    this.features = features;
    this.applyApiDefaults = applyApiDefaults;
    this.classes = classes;
  }

  AllocationExplanation explain(
      List<ResourceClaim> claims, AllocatorInputs inputs, AllocationOutcome outcome) {
    NodeSelection node = new NodeSelection(inputs.nodeName(), inputs.nodeLabels());
    PoolGathering gathering = new PoolGathering(features, node);
    List<Pool> pools;
    AllocatedState allocated;
    try {
      pools = gathering.gather(inputs.slices());
      allocated = new AllocatedState(inputs.allocatedClaims(), features);
    } catch (AllocationError e) {
      return new AllocationExplanation(inputs.nodeName(), outcome, List.of());
    }
    LeftOutSlices leftOut = LeftOutSlices.of(inputs.slices(), features, gathering);
    SelectorMatcher matcher = new SelectorMatcher(environment, features, gathering);
    ClaimPlanner planner = new ClaimPlanner(features, classes, pools, allocated, matcher);
    DeviceJudge judge = new DeviceJudge(features, inputs, pools, allocated, matcher,
        new CounterLedger(pools, allocated), environment);
    List<PoolDevice> elsewhere = otherNodes(inputs.slices(), gathering, leftOut);
    List<ClaimExplanation> explained = new ArrayList<>();
    for (int i = 0; i < claims.size(); i++) {
      ResourceClaim claim = claims.get(i);
      Map<String, List<String>> chosen = chosenDevices(outcome, i);
      if (claim.getStatus() != null && claim.getStatus().getAllocation() != null) {
        explained.add(new ClaimExplanation(ClaimNames.of(claim), List.of()));
        continue;
      }
      ResourceClaim copy = ClaimDefaults.copy(claim, applyApiDefaults);
      List<RequestExplanation> requests = new ArrayList<>();
      List<DeviceRequest> specRequests = copy.getSpec() == null
          || copy.getSpec().getDevices() == null
              ? List.of() : NodeSelection.nonNull(copy.getSpec().getDevices().getRequests());
      for (DeviceRequest request : specRequests) {
        List<DeviceSubRequest> subs = NodeSelection.nonNull(request.getFirstAvailable());
        if (subs.isEmpty()) {
          requests.add(explainRequest(copy, request, planner, judge, elsewhere, chosen));
        } else {
          for (DeviceSubRequest sub : subs) {
            DeviceRequest single = new DeviceRequestBuilder(request).withFirstAvailable(sub)
                .build();
            requests.add(explainRequest(copy, single, planner, judge, elsewhere, chosen));
          }
        }
      }
      explained.add(new ClaimExplanation(ClaimNames.of(claim), requests));
    }
    return new AllocationExplanation(inputs.nodeName(), outcome, explained, leftOut.summary());
  }

  private RequestExplanation explainRequest(ResourceClaim claim, DeviceRequest request,
      ClaimPlanner planner, DeviceJudge judge, List<PoolDevice> elsewhere,
      Map<String, List<String>> chosen) {
    ResourceClaim single = new ResourceClaimBuilder(claim).editSpec().editDevices()
        .withRequests(request).withConstraints().withConfig().endDevices().endSpec().build();
    DeviceSubRequest sub = NodeSelection.nonNull(request.getFirstAvailable()).isEmpty()
        ? null : request.getFirstAvailable().get(0);
    String name = sub == null ? request.getName() : request.getName() + "/" + sub.getName();
    String className = sub != null ? sub.getDeviceClassName()
        : request.getExactly() == null ? null : request.getExactly().getDeviceClassName();
    String mode = sub != null ? sub.getAllocationMode()
        : request.getExactly() == null ? null : request.getExactly().getAllocationMode();
    ClaimPlan plan;
    try {
      plan = planner.plan(List.of(single)).get(0);
    } catch (AllocationError e) {
      return new RequestExplanation(name, nullToEmpty(className), nullToEmpty(mode), 0,
          Optional.of(e.getMessage()), List.of(), List.of());
    }
    RequestPlan requestPlan = plan.requests().get(0).get(0);
    List<DeviceVerdict> verdicts = new ArrayList<>(
        judge.judgeNodeDevices(claim, plan, requestPlan));
    List<PoolDevice> unmatched = new ArrayList<>();
    for (PoolDevice device : elsewhere) {
      Optional<DeviceVerdict> verdict = judge.judgeElsewhere(plan, requestPlan, device);
      if (verdict.isPresent()) {
        verdicts.add(verdict.get());
      } else {
        unmatched.add(device);
      }
    }
    return new RequestExplanation(name, nullToEmpty(className), nullToEmpty(mode),
        requestPlan.numDevices(), Optional.empty(), verdicts, chosen.getOrDefault(name, List.of()),
        LeftOutSlices.unmatched(unmatched));
  }

  /** Devices of slices that do not reach the node (readable ones, not left out everywhere). */
  private static List<PoolDevice> otherNodes(List<ResourceSlice> slices, PoolGathering gathering,
      LeftOutSlices leftOut) {
    List<PoolDevice> devices = new ArrayList<>();
    for (ResourceSlice slice : slices) {
      if (leftOut.contains(slice) || slice.getSpec() == null || slice.getSpec().getPool() == null
          || slice.getSpec().getPool().getName() == null || slice.getSpec().getDriver() == null
          || gathering.targetsNode(slice)) {
        continue;
      }
      try {
        for (Device device : NodeSelection.nonNull(slice.getSpec().getDevices())) {
          devices.add(PoolDevice.of(slice, device));
        }
      } catch (IllegalArgumentException e) {
        // a slice that cannot be read is only reported by the node it targets
      }
    }
    return devices;
  }

  /** The device ids the outcome allocated to a claim, per result request name. */
  private static Map<String, List<String>> chosenDevices(AllocationOutcome outcome, int index) {
    Map<String, List<String>> chosen = new HashMap<>();
    if (!(outcome instanceof AllocationOutcome.Allocated allocated)) {
      return chosen;
    }
    ResourceClaim claim = allocated.claims().get(index);
    for (DeviceRequestAllocationResult result : NodeSelection
        .nonNull(claim.getStatus().getAllocation().getDevices().getResults())) {
      chosen.computeIfAbsent(result.getRequest(), k -> new ArrayList<>())
          .add(result.getDriver() + "/" + result.getPool() + "/" + result.getDevice());
    }
    return chosen;
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }

  /** The reason and detail of a verdict, before the device's identity is added. */
  record Finding(Reason reason, String detail) {
    static final Finding USABLE = new Finding(Reason.USABLE, "");
  }
}
