package io.github.dra4j.structured;

import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.NodeSelectorTermBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationConfigurationBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClaimConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTolerationBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceSpec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Builds a claim's {@code status.allocation} from the search's choices: the device results (in
 * choice order), the configuration (class configs first, then matching claim configs; entries
 * covering every request lose their {@code requests} list) and the node selector. Stateless apart
 * from its inputs; used by one attempt.
 */
final class ResultAssembler {

  private static final String FROM_CLASS = "FromClass";
  private static final String FROM_CLAIM = "FromClaim";

  private final AllocatorFeatures features;
  private final String nodeName;

  ResultAssembler(AllocatorFeatures features, String nodeName) {
    this.features = features;
    this.nodeName = nodeName;
  }

  AllocationResult assemble(ClaimPlan claim, List<RequestPlan> chosenPlans,
      List<AllocationSearch.Choice> choices) throws AllocationError {
    List<DeviceRequestAllocationResult> results = new ArrayList<>();
    for (AllocationSearch.Choice choice : choices) {
      results.add(result(choice));
    }
    return new AllocationResultBuilder()
        .withNewDevices()
        .withResults(results)
        .withConfig(config(claim, chosenPlans))
        .endDevices()
        .withNodeSelector(nodeSelector(claim, choices))
        .build();
  }

  private DeviceRequestAllocationResult result(AllocationSearch.Choice choice) {
    RequestPlan plan = choice.plan();
    Device device = choice.device().device();
    DeviceRequestAllocationResultBuilder b = new DeviceRequestAllocationResultBuilder()
        .withRequest(plan.resultName())
        .withDriver(choice.device().id().driver())
        .withPool(choice.device().id().pool())
        .withDevice(choice.device().id().device())
        .withAdminAccess(plan.adminAccess() ? Boolean.TRUE : null)
        .withTolerations(plan.tolerations().isEmpty() ? null
            : plan.tolerations().stream().map(t -> new DeviceTolerationBuilder(t).build()).toList())
        .withBindingConditions((List<String>) null)
        .withBindingFailureConditions((List<String>) null)
        .withSkipNodeOperations((List<String>) null)
        .withShareID(choice.shareId());
    if (features.deviceBindingAndStatus() && !choice.device().bindingConditions().isEmpty()) {
      b.withBindingConditions(List.copyOf(device.getBindingConditions()))
          .withBindingFailureConditions(device.getBindingFailureConditions() == null
              || device.getBindingFailureConditions().isEmpty()
                  ? null : List.copyOf(device.getBindingFailureConditions()));
    }
    if (choice.consumed() != null && !choice.consumed().isEmpty()) {
      Map<String, Quantity> consumed = new TreeMap<>();
      choice.consumed().forEach((name, amount) -> consumed.put(name, Quantities.toFabric8(amount)));
      b.withConsumedCapacity(consumed);
    } else {
      b.withConsumedCapacity(null);
    }
    return b.build();
  }

  private static List<DeviceAllocationConfiguration> config(ClaimPlan claim,
      List<RequestPlan> plans) {
    List<DeviceAllocationConfiguration> config = new ArrayList<>();
    Map<String, List<DeviceAllocationConfiguration>> byClass = new LinkedHashMap<>();
    for (RequestPlan plan : plans) {
      List<DeviceAllocationConfiguration> entries = byClass.get(plan.className());
      if (entries == null) {
        entries = new ArrayList<>();
        List<DeviceClassConfiguration> classConfig = plan.deviceClass().getSpec() == null
            ? List.of() : NodeSelection.nonNull(plan.deviceClass().getSpec().getConfig());
        for (DeviceClassConfiguration c : classConfig) {
          DeviceAllocationConfiguration entry = new DeviceAllocationConfigurationBuilder()
              .withSource(FROM_CLASS)
              .withRequests(new ArrayList<>())
              .withOpaque(c.getOpaque())
              .build();
          entries.add(entry);
          config.add(entry);
        }
        byClass.put(plan.className(), entries);
      }
      for (DeviceAllocationConfiguration entry : entries) {
        entry.getRequests().add(plan.resultName());
      }
    }
    Set<String> names = new HashSet<>();
    for (RequestPlan plan : plans) {
      names.add(plan.baseName());
      names.add(plan.resultName());
    }
    List<DeviceClaimConfiguration> claimConfig = claim.claim().getSpec().getDevices() == null
        ? List.of() : NodeSelection.nonNull(claim.claim().getSpec().getDevices().getConfig());
    for (DeviceClaimConfiguration c : claimConfig) {
      List<String> requests = NodeSelection.nonNull(c.getRequests());
      if (requests.isEmpty() || requests.stream().anyMatch(names::contains)) {
        config.add(new DeviceAllocationConfigurationBuilder()
            .withSource(FROM_CLAIM)
            .withRequests(new ArrayList<>(requests))
            .withOpaque(c.getOpaque())
            .build());
      }
    }
    for (DeviceAllocationConfiguration entry : config) {
      if (coversAll(entry.getRequests(), plans)) {
        entry.setRequests(null);
      }
    }
    return config;
  }

  private static boolean coversAll(List<String> requests, List<RequestPlan> plans) {
    if (requests == null || requests.isEmpty()) {
      return true;
    }
    for (RequestPlan plan : plans) {
      if (!requests.contains(plan.baseName()) && !requests.contains(plan.resultName())) {
        return false;
      }
    }
    return true;
  }

  private NodeSelector nodeSelector(ClaimPlan claim, List<AllocationSearch.Choice> choices)
      throws AllocationError {
    List<NodeSelector> sources = new ArrayList<>();
    for (AllocationSearch.Choice choice : choices) {
      PoolDevice device = choice.device();
      ResourceSliceSpec spec = device.slice().getSpec();
      Device d = device.device();
      boolean perDevice = device.perDeviceNodeSelection();
      String sliceNode = perDevice ? d.getNodeName() : spec.getNodeName();
      boolean bindsToNode = features.deviceBindingAndStatus()
          && Boolean.TRUE.equals(d.getBindsToNode());
      if ((sliceNode != null && !sliceNode.isEmpty()) || bindsToNode) {
        NodeSelectorRequirement onNode = new NodeSelectorRequirementBuilder()
            .withKey("metadata.name")
            .withOperator("In")
            .withValues(nodeName)
            .build();
        return new NodeSelectorBuilder()
            .withNodeSelectorTerms(new NodeSelectorTermBuilder().withMatchFields(onNode).build())
            .build();
      }
      NodeSelector selector = perDevice ? d.getNodeSelector() : spec.getNodeSelector();
      if (selector != null) {
        sources.add(selector);
      }
    }
    if (sources.isEmpty()) {
      return null;
    }
    List<NodeSelectorRequirement> expressions = new ArrayList<>();
    List<NodeSelectorRequirement> fields = new ArrayList<>();
    for (NodeSelector selector : sources) {
      List<NodeSelectorTerm> terms = NodeSelection.nonNull(selector.getNodeSelectorTerms());
      if (terms.size() != 1) {
        throw new AllocationError(
            "create NodeSelector for claim " + claim.claim().getMetadata().getName()
                + ": unsupported ResourceSlice.NodeSelector with " + terms.size() + " terms");
      }
      addUnique(expressions, terms.get(0).getMatchExpressions());
      addUnique(fields, terms.get(0).getMatchFields());
    }
    NodeSelectorTermBuilder term = new NodeSelectorTermBuilder()
        .withMatchExpressions(expressions)
        .withMatchFields(fields);
    return new NodeSelectorBuilder().withNodeSelectorTerms(term.build()).build();
  }

  private static void addUnique(List<NodeSelectorRequirement> into,
      List<NodeSelectorRequirement> from) {
    for (NodeSelectorRequirement r : NodeSelection.nonNull(from)) {
      boolean duplicate = into.stream()
          .anyMatch(existing -> String.valueOf(existing.getKey()).equals(String.valueOf(r.getKey()))
              && String.valueOf(existing.getOperator()).equals(String.valueOf(r.getOperator()))
              && new HashSet<>(NodeSelection.nonNull(existing.getValues()))
                  .equals(new HashSet<>(NodeSelection.nonNull(r.getValues()))));
      if (!duplicate) {
        into.add(new NodeSelectorRequirementBuilder(r).build());
      }
    }
  }
}
