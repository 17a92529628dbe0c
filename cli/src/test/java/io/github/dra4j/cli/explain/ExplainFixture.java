package io.github.dra4j.cli.explain;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.dra4j.structured.AllocationOutcome;
import io.github.dra4j.structured.AllocatorInputs;
import io.github.dra4j.structured.StructuredAllocator;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A cluster where each device of node-1 fails claim {@code gpu-test/gpu-claim} for a different
 * reason, written to an API server the way a cluster gets there: objects created, then claims
 * {@code holder}, {@code sharer} and {@code orphan} allocated by the SDK's allocator and their
 * status written as the scheduler writes it.
 *
 * <ul>
 *   <li>gpu-0 (T4): the class selector's condition {@code model == "A100"} is false;
 *   <li>gpu-1 (A100, 20Gi): the request's selector (at least 40Gi) is false;
 *   <li>gpu-2: tainted {@code health=bad:NoSchedule};
 *   <li>gpu-3: allocated to claim {@code gpu-test/holder};
 *   <li>gpu-4: consumes 80Gi of a counter set of 60Gi;
 *   <li>gpu-5: shareable 80Gi, 60Gi consumed by {@code gpu-test/sharer};
 *   <li>node-2's gpu-0: published for node node-2.
 * </ul>
 */
final class ExplainFixture {

  static final String OBJECTS = """
      apiVersion: v1
      kind: Namespace
      metadata: {name: gpu-test}
      ---
      apiVersion: v1
      kind: Namespace
      metadata:
        name: admin-ns
        labels: {resource.kubernetes.io/admin-access: "true"}
      ---
      apiVersion: v1
      kind: Node
      metadata: {name: node-1}
      ---
      apiVersion: v1
      kind: Node
      metadata: {name: node-2}
      ---
      apiVersion: v1
      kind: Node
      metadata: {name: node-3}
      ---
      apiVersion: resource.k8s.io/v1
      kind: DeviceClass
      metadata: {name: gpu.example.com}
      spec:
        selectors:
        - cel:
            expression: device.driver == "gpu.example.com" && device.attributes["gpu.example.com"].model == "A100"
      ---
      apiVersion: resource.k8s.io/v1
      kind: DeviceClass
      metadata: {name: nic.example.com}
      spec:
        selectors:
        - cel: {expression: device.driver == "nic.example.com"}
      ---
      apiVersion: resource.k8s.io/v1
      kind: ResourceSlice
      metadata: {name: node-1-gpus}
      spec:
        driver: gpu.example.com
        nodeName: node-1
        pool: {name: node-1, generation: 1, resourceSliceCount: 2}
        devices:
        - name: gpu-0
          attributes: {model: {string: T4}, index: {int: 0}}
          capacity: {memory: {value: 16Gi}}
        - name: gpu-1
          attributes: {model: {string: A100}, index: {int: 1}}
          capacity: {memory: {value: 20Gi}}
        - name: gpu-2
          attributes: {model: {string: A100}, index: {int: 2}}
          capacity: {memory: {value: 80Gi}}
          taints: [{key: health, value: bad, effect: NoSchedule}]
        - name: gpu-3
          attributes: {model: {string: A100}, index: {int: 3}}
          capacity: {memory: {value: 80Gi}}
        - name: gpu-4
          attributes: {model: {string: A100}, index: {int: 4}}
          capacity: {memory: {value: 80Gi}}
          consumesCounters:
          - counterSet: node-1-memory
            counters: {memory: {value: 80Gi}}
        - name: gpu-5
          attributes: {model: {string: A100}, index: {int: 5}}
          capacity: {memory: {value: 80Gi}}
          allowMultipleAllocations: true
      ---
      apiVersion: resource.k8s.io/v1
      kind: ResourceSlice
      metadata: {name: node-1-counters}
      spec:
        driver: gpu.example.com
        nodeName: node-1
        pool: {name: node-1, generation: 1, resourceSliceCount: 2}
        sharedCounters:
        - name: node-1-memory
          counters: {memory: {value: 60Gi}}
      ---
      apiVersion: resource.k8s.io/v1
      kind: ResourceSlice
      metadata: {name: node-2-gpus}
      spec:
        driver: gpu.example.com
        nodeName: node-2
        pool: {name: node-2, generation: 1, resourceSliceCount: 1}
        devices:
        - name: gpu-0
          attributes: {model: {string: A100}, index: {int: 0}}
          capacity: {memory: {value: 80Gi}}
      ---
      apiVersion: resource.k8s.io/v1
      kind: ResourceSlice
      metadata: {name: node-3-nics}
      spec:
        driver: nic.example.com
        nodeName: node-3
        pool: {name: node-3, generation: 1, resourceSliceCount: 1}
        devices:
        - name: nic-0
      ---
      apiVersion: resource.k8s.io/v1
      kind: ResourceClaim
      metadata: {name: gpu-claim, namespace: gpu-test}
      spec:
        devices:
          requests:
          - name: gpu
            exactly:
              deviceClassName: gpu.example.com
              selectors:
              - cel: {expression: 'device.capacity["gpu.example.com"].memory.compareTo(quantity("40Gi")) >= 0'}
      ---
      apiVersion: resource.k8s.io/v1
      kind: ResourceClaim
      metadata: {name: holder, namespace: gpu-test}
      spec:
        devices:
          requests:
          - name: gpu
            exactly:
              deviceClassName: gpu.example.com
              selectors:
              - cel: {expression: 'device.attributes["gpu.example.com"].index == 3'}
      ---
      apiVersion: resource.k8s.io/v1
      kind: ResourceClaim
      metadata: {name: sharer, namespace: gpu-test}
      spec:
        devices:
          requests:
          - name: gpu
            exactly:
              deviceClassName: gpu.example.com
              capacity: {requests: {memory: 60Gi}}
              selectors:
              - cel: {expression: 'device.attributes["gpu.example.com"].index == 5'}
      ---
      apiVersion: resource.k8s.io/v1
      kind: ResourceClaim
      metadata: {name: orphan, namespace: gpu-test}
      spec:
        devices:
          requests:
          - name: nic
            exactly: {deviceClassName: nic.example.com}
      ---
      apiVersion: resource.k8s.io/v1
      kind: ResourceClaim
      metadata: {name: tolerant, namespace: gpu-test}
      spec:
        devices:
          requests:
          - name: gpu
            exactly:
              deviceClassName: gpu.example.com
              tolerations: [{key: health, operator: Exists}]
              selectors:
              - cel: {expression: 'device.attributes["gpu.example.com"].index == 2'}
      ---
      apiVersion: resource.k8s.io/v1
      kind: ResourceClaim
      metadata: {name: typo, namespace: gpu-test}
      spec:
        devices:
          requests:
          - name: gpu
            exactly: {deviceClassName: gpu.exmaple.com}
      ---
      apiVersion: resource.k8s.io/v1
      kind: ResourceClaim
      metadata: {name: inspect, namespace: admin-ns}
      spec:
        devices:
          requests:
          - name: gpu
            exactly:
              deviceClassName: gpu.example.com
              adminAccess: true
              selectors:
              - cel: {expression: 'device.attributes["gpu.example.com"].index == 3'}
      ---
      apiVersion: resource.k8s.io/v1
      kind: ResourceClaimTemplate
      metadata: {name: gpu-template, namespace: gpu-test}
      spec:
        spec:
          devices:
            requests:
            - name: gpu
              exactly: {deviceClassName: gpu.example.com}
      ---
      apiVersion: v1
      kind: Pod
      metadata: {name: pod0, namespace: gpu-test}
      spec:
        nodeName: node-1
        containers: [{name: ctr, image: busybox}]
        resourceClaims:
        - {name: shared, resourceClaimName: holder}
        - {name: own, resourceClaimTemplateName: gpu-template}
      """;

  private ExplainFixture() {}

  /** Creates the objects and allocates holder and sharer on node-1, orphan on node-3. */
  static void create(KubernetesClient client) {
    List<HasMetadata> items = client.load(
        new ByteArrayInputStream(OBJECTS.getBytes(StandardCharsets.UTF_8))).items();
    for (HasMetadata item : items) {
      client.resource(item).create();
    }
    allocate(client, "holder", "node-1");
    allocate(client, "sharer", "node-1");
    allocate(client, "orphan", "node-3");
    // the NIC driver's plugin on node-3 went away: the kubelet removed its slice
    client.resources(ResourceSlice.class).withName("node-3-nics").delete();
  }

  private static void allocate(KubernetesClient client, String claimName, String node) {
    ResourceClaim claim = client.resources(ResourceClaim.class).inNamespace("gpu-test")
        .withName(claimName).get();
    List<ResourceClaim> allocated = client.resources(ResourceClaim.class).inAnyNamespace().list()
        .getItems().stream().filter(c -> c.getStatus() != null
            && c.getStatus().getAllocation() != null)
        .toList();
    AllocationOutcome outcome = StructuredAllocator.create().allocate(claim,
        AllocatorInputs.builder()
            .deviceClasses(client.resources(DeviceClass.class).list().getItems())
            .slices(client.resources(ResourceSlice.class).list().getItems())
            .node(client.nodes().withName(node).get())
            .allocatedClaims(allocated).build());
    if (!(outcome instanceof AllocationOutcome.Allocated done)) {
      throw new AssertionError(claimName + " not allocated: " + outcome);
    }
    ResourceClaim result = done.claim();
    client.resources(ResourceClaim.class).inNamespace("gpu-test").resource(result).updateStatus();
  }
}
