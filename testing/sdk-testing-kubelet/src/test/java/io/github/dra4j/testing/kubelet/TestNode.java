package io.github.dra4j.testing.kubelet;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.dra4j.resourceclaim.ClaimReference;
import io.github.dra4j.testing.apiserver.ApiVerb;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A simulated node for one test: an in-memory API server, a registry and a plugin data directory
 * under the test's temporary directory, and helpers to start a fake kubelet and to store claims
 * and slices. Plugins are started by the tests (hand-made ones here; dra4j-testing's tests start
 * SDK plugins) and handed to {@link #own}. Closes everything it owns, newest first.
 */
final class TestNode implements AutoCloseable {

  static final String DRIVER = "gpu.example.com";
  static final String NODE = "node-1";
  static final String OTHER_DRIVER = "other.example.com";

  final InMemoryApiServer api = InMemoryApiServer.builder().build().start();
  final Path registry;
  final Path data;
  private final Deque<AutoCloseable> started = new ArrayDeque<>();

  TestNode(Path root) {
    try {
      registry = Files.createDirectories(root.resolve("reg"));
      data = Files.createDirectories(root.resolve("data"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  KubernetesClient client() {
    return api.client();
  }

  /** Starts a kubelet with fast registration retries and the given changes to its builder. */
  FakeKubelet kubelet(UnaryOperator<FakeKubeletBuilder> customize) {
    return own(customize.apply(FakeKubelet.builder()
        .registryDirectory(registry)
        .nodeName(NODE)
        .kubeClient(client())
        .registrationBackoff(Duration.ofMillis(50), Duration.ofMillis(400)))
        .start());
  }

  FakeKubelet kubelet() {
    return kubelet(b -> b);
  }

  <T extends AutoCloseable> T own(T resource) {
    started.push(resource);
    return resource;
  }

  /** Stores a claim allocated to one device of {@link #DRIVER} and returns its reference. */
  ClaimReference claim(String name) {
    ResourceClaim claim = new ResourceClaimBuilder()
        .withNewMetadata().withNamespace("default").withName(name).endMetadata()
        .withNewSpec().withNewDevices()
        .addNewRequest().withName("gpu").withNewExactly()
        .withDeviceClassName("gpu.example.com").endExactly().endRequest()
        .endDevices().endSpec()
        .build();
    ResourceClaim created = client().resource(claim).create();
    created.setStatus(new ResourceClaimBuilder().withNewStatus().withNewAllocation()
        .withNewDevices()
        .addNewResult().withRequest("gpu").withDriver(DRIVER).withPool(NODE)
        .withDevice("gpu-0").endResult()
        .endDevices().endAllocation().endStatus().build().getStatus());
    created = client().resource(created).updateStatus();
    return new ClaimReference("default", name, created.getMetadata().getUid());
  }

  /** Creates a ResourceSlice of a driver on a node (null node: a network-attached pool). */
  void slice(String name, String driver, String node) {
    ResourceSlice slice = new ResourceSliceBuilder()
        .withNewMetadata().withName(name).endMetadata()
        .withNewSpec().withDriver(driver).withNodeName(node)
        .withAllNodes(node == null ? Boolean.TRUE : null)
        .withNewPool().withName(name).withGeneration(1L).withResourceSliceCount(1L).endPool()
        .endSpec()
        .build();
    client().resource(slice).create();
  }

  /**
   * Stores four slices: {@code a} of {@link #DRIVER} on this node, {@code b} of {@link
   * #OTHER_DRIVER} on this node, {@code c} of {@link #DRIVER} on {@code node-2}, {@code d} of
   * {@link #DRIVER} on all nodes.
   */
  void sampleSlices() {
    slice("a", DRIVER, NODE);
    slice("b", OTHER_DRIVER, NODE);
    slice("c", DRIVER, "node-2");
    slice("d", DRIVER, null);
  }

  /** How many DeleteCollection requests for ResourceSlices the API server has received. */
  long sliceDeleteCollections() {
    return api.countRequests(r -> r.is(ApiVerb.DELETE_COLLECTION, "resourceslices"));
  }

  /** Names of all stored slices, sorted. */
  List<String> sliceNames() {
    return client().resources(ResourceSlice.class).list().getItems().stream()
        .map(s -> s.getMetadata().getName()).sorted().toList();
  }

  @Override
  public void close() {
    while (!started.isEmpty()) {
      try {
        started.pop().close();
      } catch (Exception e) {
        throw new IllegalStateException("closing a test resource failed", e);
      }
    }
    api.close();
  }
}
