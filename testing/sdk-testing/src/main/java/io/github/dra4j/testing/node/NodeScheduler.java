package io.github.dra4j.testing.node;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.dra4j.structured.AllocationOutcome;
import io.github.dra4j.structured.AllocatorInputs;
import io.github.dra4j.structured.StructuredAllocator;
import java.util.List;

/**
 * The scheduler's part for one simulated node: reads DeviceClasses and the claims already
 * allocated from the API server, runs the structured allocator for this node, and stores the
 * allocation in the claim's status. Stateless apart from the borrowed client and the allocator
 * it builds on first use; thread-safe.
 */
final class NodeScheduler {

  private final KubernetesClient client;
  private final Node node;
  private StructuredAllocator allocator; // built on first use: its CEL environment is costly

  NodeScheduler(KubernetesClient client, Node node) {
    this.client = client;
    this.node = node;
  }

  ResourceClaim allocate(ResourceClaim claim, List<ResourceSlice> slices) {
    ResourceClaim current = client.resource(claim).get();
    List<ResourceClaim> allocated = client.dynamicResourceAllocation().v1().resourceClaims()
        .inAnyNamespace().list().getItems().stream()
        .filter(c -> c.getStatus() != null && c.getStatus().getAllocation() != null)
        .toList();
    AllocatorInputs inputs = AllocatorInputs.builder()
        .deviceClasses(client.dynamicResourceAllocation().v1().deviceClasses().list().getItems())
        .slices(slices)
        .node(node)
        .allocatedClaims(allocated)
        .build();
    AllocationOutcome outcome = allocator().allocate(current, inputs);
    if (!(outcome instanceof AllocationOutcome.Allocated result)) {
      throw new AllocationFailedException(
          current.getMetadata().getNamespace() + "/" + current.getMetadata().getName(),
          outcome.failureReason().orElse("unknown"));
    }
    current.setStatus(result.claim().getStatus());
    return client.resource(current).updateStatus();
  }

  private synchronized StructuredAllocator allocator() {
    if (allocator == null) {
      allocator = StructuredAllocator.create();
    }
    return allocator;
  }
}
