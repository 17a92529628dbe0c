package io.github.dra4j.cli.explain;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import java.util.Optional;

/**
 * The cluster as the scheduler sees it for DRA, read once: every DeviceClass, ResourceSlice,
 * ResourceClaim (all namespaces) and Node, and the target's namespace and its pods. Immutable; the
 * lists are copied, the objects in them are never changed.
 *
 * @param classes every DeviceClass
 * @param slices every ResourceSlice
 * @param claims every ResourceClaim of every namespace
 * @param nodes every Node
 * @param pods the pods of the target's namespace
 * @param namespace the target's namespace, or null when it does not exist or cannot be read
 * @param namespaceError why the namespace could not be read, or null
 */
record ClusterState(List<DeviceClass> classes, List<ResourceSlice> slices,
    List<ResourceClaim> claims, List<Node> nodes, List<Pod> pods, Namespace namespace,
    String namespaceError) {

  ClusterState {
    classes = List.copyOf(classes);
    slices = List.copyOf(slices);
    claims = List.copyOf(claims);
    nodes = List.copyOf(nodes);
    pods = List.copyOf(pods);
  }

  /**
   * Reads the cluster.
   *
   * @param client the client; not closed
   * @param namespace the namespace whose pods to read
   * @return the state
   */
  static ClusterState read(KubernetesClient client, String namespace) {
    Namespace object = null;
    String error = null;
    try {
      object = client.namespaces().withName(namespace).get();
      if (object == null) {
        error = "namespace " + namespace + " not found";
      }
    } catch (KubernetesClientException e) {
      if (e.getCode() != 403) {
        throw e;
      }
      error = "not allowed to read namespace " + namespace;
    }
    return new ClusterState(
        client.resources(DeviceClass.class).list().getItems(),
        client.resources(ResourceSlice.class).list().getItems(),
        client.resources(ResourceClaim.class).inAnyNamespace().list().getItems(),
        client.nodes().list().getItems(),
        client.pods().inNamespace(namespace).list().getItems(),
        object, error);
  }

  /** Returns the claims that have an allocation (their devices are in use). */
  List<ResourceClaim> allocatedClaims() {
    return claims.stream()
        .filter(c -> c.getStatus() != null && c.getStatus().getAllocation() != null)
        .toList();
  }

  /** Finds a claim by namespace and name. */
  Optional<ResourceClaim> claim(String namespace, String name) {
    return claims.stream()
        .filter(c -> namespace.equals(c.getMetadata().getNamespace())
            && name.equals(c.getMetadata().getName()))
        .findFirst();
  }

  /** Finds a node by name. */
  Optional<Node> node(String name) {
    return nodes.stream().filter(n -> name.equals(n.getMetadata().getName())).findFirst();
  }
}
