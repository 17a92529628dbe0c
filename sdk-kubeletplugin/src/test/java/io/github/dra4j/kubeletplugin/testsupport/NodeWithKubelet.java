package io.github.dra4j.kubeletplugin.testsupport;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import io.github.dra4j.testing.kubelet.FakeKubelet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * One node of a cluster for a plugin test: the in-memory API server with Node {@code node-1}, and
 * the fake kubelet of that node watching a registry directory under the test's directory; plus
 * reading back the devices the plugin published. The test that makes it owns it and closes it
 * (kubelet first, then the server).
 */
public final class NodeWithKubelet implements AutoCloseable {

  /** The node's name. */
  public static final String NODE = "node-1";

  private final InMemoryApiServer server;
  private final FakeKubelet kubelet;

  private NodeWithKubelet(InMemoryApiServer server, FakeKubelet kubelet) {
    this.server = server;
    this.kubelet = kubelet;
  }

  /**
   * Starts the API server, creates the Node and starts the kubelet with its registry directory at
   * {@code root/registry}.
   *
   * @param root the test's temporary directory
   * @return the started node
   * @throws IOException if the registry directory cannot be made
   */
  public static NodeWithKubelet start(Path root) throws IOException {
    InMemoryApiServer server = InMemoryApiServer.builder().build().start();
    try {
      server.client().nodes().resource(new NodeBuilder().withNewMetadata().withName(NODE)
          .endMetadata().build()).create();
      FakeKubelet kubelet = FakeKubelet.builder()
          .registryDirectory(Files.createDirectories(root.resolve("registry")))
          .nodeName(NODE).kubeClient(server.client()).wipeOnStart(false).start();
      return new NodeWithKubelet(server, kubelet);
    } catch (IOException | RuntimeException e) {
      server.close();
      throw e;
    }
  }

  /**
   * Returns the API server's client.
   *
   * @return the client
   */
  public KubernetesClient client() {
    return server.client();
  }

  /**
   * Returns the node's kubelet.
   *
   * @return the fake kubelet
   */
  public FakeKubelet kubelet() {
    return kubelet;
  }

  /**
   * Returns a device of the published slices.
   *
   * @param name the device's name
   * @return the device
   * @throws AssertionError if no slice holds it
   */
  public Device device(String name) {
    return client().dynamicResourceAllocation().v1().resourcesSlices().list().getItems().stream()
        .flatMap(s -> s.getSpec().getDevices().stream())
        .filter(d -> d.getName().equals(name)).findFirst()
        .orElseThrow(() -> new AssertionError("device " + name + " is not published"));
  }

  /**
   * Returns a published device's taints.
   *
   * @param name the device's name
   * @return its taints, empty if it has none
   */
  public List<DeviceTaint> taints(String name) {
    List<DeviceTaint> taints = device(name).getTaints();
    return taints == null ? List.of() : taints;
  }

  /** Stops the kubelet, then the API server. */
  @Override
  public void close() {
    try {
      kubelet.close();
    } finally {
      server.close();
    }
  }
}
