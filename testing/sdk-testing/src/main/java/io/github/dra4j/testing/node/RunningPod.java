package io.github.dra4j.testing.node;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.cdi.spec.ContainerEdits;
import io.github.dra4j.testing.cdi.registry.CdiRegistry;
import io.github.dra4j.testing.kubelet.PrepareOutcome;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * A pod {@link SimulatedPods#start started} on a simulated node: its claims, allocated and
 * prepared, and what each of its containers gets from the container runtime. Immutable.
 *
 * @param pod the pod as given
 * @param claims the pod's claims by the name the pod gives them ({@code spec.resourceClaims[].name})
 * @param generated the names of the claims made from templates for this pod, deleted when it stops
 * @param outcomes the kubelet's prepare outcome of each claim, by claim UID
 * @param cdiDirectory where the node's CDI specs are
 */
public record RunningPod(Pod pod, Map<String, ResourceClaim> claims, List<String> generated,
    Map<String, PrepareOutcome> outcomes, Path cdiDirectory) {

  /**
   * Copies the collections.
   *
   * @param pod not null
   * @param claims copied
   * @param generated copied
   * @param outcomes copied
   * @param cdiDirectory not null
   */
  public RunningPod {
    Objects.requireNonNull(pod, "pod");
    claims = Map.copyOf(claims);
    generated = List.copyOf(generated);
    outcomes = Map.copyOf(outcomes);
    Objects.requireNonNull(cdiDirectory, "cdiDirectory");
  }

  /**
   * The pod's name.
   *
   * @return {@code metadata.name}
   */
  public String name() {
    return pod.getMetadata().getName();
  }

  /**
   * What a container (or init container) gets from the runtime: the CDI devices of the claims
   * it lists in {@code resources.claims}, only the devices of the named request where it names
   * one, resolved the way containerd and CRI-O resolve them.
   *
   * @param containerName the container's name
   * @return the merged edits
   * @throws IllegalArgumentException if the pod has no such container, or it names a claim the
   *     pod does not have
   */
  public ContainerEdits containerEdits(String containerName) {
    Container container = Stream.concat(pod.getSpec().getContainers().stream(),
        pod.getSpec().getInitContainers().stream())
        .filter(c -> c.getName().equals(containerName)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("pod " + name() + " has no container "
            + containerName));
    List<String> ids = new ArrayList<>();
    if (container.getResources() == null) {
      return ContainerEdits.EMPTY;
    }
    for (var use : container.getResources().getClaims()) {
      ResourceClaim claim = claims.get(use.getName());
      if (claim == null) {
        throw new IllegalArgumentException("container " + containerName + " of pod " + name()
            + " uses claim " + use.getName() + ", which the pod does not list");
      }
      PrepareOutcome outcome = outcomes.get(claim.getMetadata().getUid());
      for (PrepareOutcome.Device device : outcome.devices(claim.getMetadata().getUid())) {
        if (use.getRequest() == null || use.getRequest().isEmpty()
            || device.requestNames().contains(use.getRequest())) {
          device.cdiDeviceIds().stream().filter(id -> !ids.contains(id)).forEach(ids::add);
        }
      }
    }
    return CdiRegistry.load(List.of(cdiDirectory)).resolve(ids).edits();
  }

  /**
   * The environment of a container as a map, for assertions.
   *
   * @param containerName the container's name
   * @return variable to value
   */
  public Map<String, String> environment(String containerName) {
    Map<String, String> env = new LinkedHashMap<>();
    for (String entry : containerEdits(containerName).env()) {
      int equals = entry.indexOf('=');
      env.put(entry.substring(0, equals), entry.substring(equals + 1));
    }
    return env;
  }
}
