package io.github.dra4j.testing.node;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.github.dra4j.testing.kubelet.PrepareOutcome;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Runs pods on a {@link SimulatedNode} the way the control plane and the kubelet do for their
 * claims, so that the YAML a user applies can be tested as it is: a claim template gives each pod
 * its own claim, a named claim is shared, every claim is allocated by the scheduler's allocator
 * and prepared by the kubelet with each driver it uses, and {@link RunningPod#containerEdits}
 * tells what each container gets. Stopping a pod unprepares the claims no other running pod uses
 * and deletes those made from templates. Get it from {@link SimulatedNode#pods()}. Thread-safe
 * for one test at a time.
 */
public final class SimulatedPods {

  private final SimulatedNode node;
  private final List<RunningPod> running = new CopyOnWriteArrayList<>();

  SimulatedPods(SimulatedNode node) {
    this.node = node;
  }

  /**
   * Starts a pod: makes its claims from templates, allocates the claims that are not allocated,
   * and prepares them.
   *
   * @param pod the pod; its namespace defaults to {@code default}
   * @return the running pod
   * @throws AllocationFailedException if a claim cannot be allocated
   * @throws IllegalStateException if a claim, a template or a prepare fails, with the kubelet's
   *     error
   */
  public RunningPod start(Pod pod) {
    String namespace = pod.getMetadata().getNamespace() == null ? "default"
        : pod.getMetadata().getNamespace();
    Map<String, ResourceClaim> claims = new LinkedHashMap<>();
    List<String> generated = new ArrayList<>();
    for (PodResourceClaim entry : pod.getSpec().getResourceClaims()) {
      ResourceClaim claim;
      if (entry.getResourceClaimName() != null) {
        claim = node.client().dynamicResourceAllocation().v1().resourceClaims()
            .inNamespace(namespace).withName(entry.getResourceClaimName()).get();
        if (claim == null) {
          throw new IllegalStateException("pod " + pod.getMetadata().getName() + ": claim "
              + namespace + "/" + entry.getResourceClaimName() + " does not exist");
        }
      } else {
        claim = fromTemplate(pod, namespace, entry);
        generated.add(claim.getMetadata().getName());
      }
      if (claim.getStatus() == null || claim.getStatus().getAllocation() == null) {
        claim = node.allocate(claim);
      }
      claims.put(entry.getName(), claim);
    }
    Map<String, PrepareOutcome> outcomes = new LinkedHashMap<>();
    for (ResourceClaim claim : claims.values()) {
      for (String driver : drivers(claim)) {
        PrepareOutcome outcome = node.prepare(driver, claim);
        String error = !outcome.isSuccess() ? outcome.error()
            : outcome.result(claim.getMetadata().getUid()).error();
        if (error != null && !error.isEmpty()) {
          throw new IllegalStateException("pod " + pod.getMetadata().getName() + ": prepare of"
              + " claim " + claim.getMetadata().getName() + " by " + driver + " failed: "
              + error);
        }
        outcomes.put(claim.getMetadata().getUid(), outcome);
      }
    }
    RunningPod started = new RunningPod(pod, claims, generated, outcomes, node.cdiDirectory());
    running.add(started);
    return started;
  }

  private ResourceClaim fromTemplate(Pod pod, String namespace, PodResourceClaim entry) {
    ResourceClaimTemplate template = node.client().dynamicResourceAllocation().v1()
        .resourceClaimTemplates().inNamespace(namespace)
        .withName(entry.getResourceClaimTemplateName()).get();
    if (template == null) {
      throw new IllegalStateException("pod " + pod.getMetadata().getName() + ": claim template "
          + namespace + "/" + entry.getResourceClaimTemplateName() + " does not exist");
    }
    return node.createClaim(new ResourceClaimBuilder()
        .withNewMetadata().withNamespace(namespace)
        .withName(pod.getMetadata().getName() + "-" + entry.getName())
        .withLabels(template.getSpec().getMetadata() == null ? null
            : template.getSpec().getMetadata().getLabels())
        .endMetadata()
        .withSpec(template.getSpec().getSpec()).build());
  }

  private static Set<String> drivers(ResourceClaim claim) {
    Set<String> drivers = new LinkedHashSet<>();
    for (DeviceRequestAllocationResult result :
        claim.getStatus().getAllocation().getDevices().getResults()) {
      drivers.add(result.getDriver());
    }
    return drivers;
  }

  /**
   * Stops a pod: unprepares each of its claims that no other running pod uses (as the kubelet
   * does), then deletes the claims made for it from templates.
   *
   * @param pod a pod this started
   * @throws IllegalStateException if an unprepare fails
   */
  public void stop(RunningPod pod) {
    running.remove(pod);
    for (ResourceClaim claim : pod.claims().values()) {
      String uid = claim.getMetadata().getUid();
      boolean stillUsed = running.stream().anyMatch(other -> other.claims().values().stream()
          .anyMatch(c -> c.getMetadata().getUid().equals(uid)));
      if (stillUsed) {
        continue;
      }
      for (String driver : drivers(claim)) {
        var outcome = node.unprepare(driver, claim);
        String error = !outcome.isSuccess() ? outcome.error() : outcome.result(uid).error();
        if (error != null && !error.isEmpty()) {
          throw new IllegalStateException("pod " + pod.name() + ": unprepare of claim "
              + claim.getMetadata().getName() + " by " + driver + " failed: " + error);
        }
      }
      if (pod.generated().contains(claim.getMetadata().getName())) {
        node.client().resource(claim).delete();
      }
    }
  }

  /**
   * The pods started and not stopped.
   *
   * @return the running pods, in start order
   */
  public List<RunningPod> running() {
    return List.copyOf(running);
  }
}
