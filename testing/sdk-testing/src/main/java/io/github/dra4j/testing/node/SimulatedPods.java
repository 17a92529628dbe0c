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
    RunningPod started = new RunningPod(pod, claims, generated, prepare(pod, claims),
        node.cdiDirectory());
    running.add(started);
    return started;
  }

  /**
   * Prepares the claims of every running pod again, as the kubelet does for the pods it finds
   * running after it restarted, after a driver's plugin was replaced, and after a node reboot:
   * the driver must answer each claim as before (and after a reboot, set it up again).
   *
   * @return the running pods with the new answers, in start order; {@link #running()} returns
   *     them from now on
   * @throws IllegalStateException if a prepare fails, with the kubelet's error
   */
  public List<RunningPod> prepareAgain() {
    List<RunningPod> again = new ArrayList<>();
    for (RunningPod pod : running) {
      RunningPod prepared = new RunningPod(pod.pod(), pod.claims(), pod.generated(),
          prepare(pod.pod(), pod.claims()), pod.cdiDirectory());
      running.set(running.indexOf(pod), prepared);
      again.add(prepared);
    }
    return again;
  }

  private Map<String, PrepareOutcome> prepare(Pod pod, Map<String, ResourceClaim> claims) {
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
    return outcomes;
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
    for (DeviceRequestAllocationResult result : claim.getStatus().getAllocation().getDevices()
        .getResults()) {
      drivers.add(result.getDriver());
    }
    return drivers;
  }

  /**
   * Stops a pod: unprepares each of its claims that no other running pod uses (as the kubelet
   * does), then deletes the claims made for it from templates.
   *
   * @param pod a pod this started (as {@link #start} or {@link #prepareAgain} returned it)
   * @throws IllegalStateException if an unprepare fails
   */
  // The very pod object start returned, not any pod equal to it.
  @SuppressWarnings("ReferenceEquality")
  public void stop(RunningPod pod) {
    running.removeIf(other -> other.pod() == pod.pod());
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
