package io.github.dra4j.cli.explain;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.AllocatedDeviceStatus;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReference;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.github.dra4j.cli.explain.ClaimReport.AllocatedDevice;
import io.github.dra4j.cli.explain.ClaimReport.Finding;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * The checks for a claim that is allocated: which node, which pods reserve it, whether each
 * driver is publishing ResourceSlices on that node (the kubelet plugin is running and reaches the
 * API server; the kubelet deletes a driver's node-local slices when its plugin goes away), whether
 * the allocated devices are still published and untainted, and what {@code status.devices} says
 * (binding conditions). Stateless.
 */
final class AllocatedClaimChecks {

  private AllocatedClaimChecks() {}

  static ClaimReport check(ResourceClaim claim, String podClaimName, Pod pod, ClusterState state) {
    var allocation = claim.getStatus().getAllocation();
    List<DeviceRequestAllocationResult> results = allocation.getDevices() == null
        ? List.of() : nonNull(allocation.getDevices().getResults());
    String node = nodeOf(allocation.getNodeSelector());
    if (node == null && pod != null && pod.getSpec() != null) {
      node = pod.getSpec().getNodeName();
    }
    List<Finding> findings = new ArrayList<>();
    boolean deleting = claim.getMetadata().getDeletionTimestamp() != null;
    if (deleting) {
      findings.add(new Finding("deletion", false, "the claim is being deleted (since "
          + claim.getMetadata().getDeletionTimestamp() + ", finalizers "
          + nonNull(claim.getMetadata().getFinalizers()) + ")"));
    }
    List<String> reservedFor = new ArrayList<>();
    for (ResourceClaimConsumerReference ref : nonNull(claim.getStatus().getReservedFor())) {
      reservedFor.add(ref.getResource() + "/" + ref.getName());
    }
    findings.add(reservation(claim, pod, reservedFor));
    List<AllocatedDevice> devices = new ArrayList<>();
    Set<String> drivers = new LinkedHashSet<>();
    for (DeviceRequestAllocationResult result : results) {
      String id = result.getDriver() + "/" + result.getPool() + "/" + result.getDevice();
      drivers.add(result.getDriver());
      List<String> conditions = conditions(claim, result);
      devices.add(new AllocatedDevice(result.getRequest(), id,
          Boolean.TRUE.equals(result.getAdminAccess()), conditions));
      deviceChecks(result, id, claim, state, findings);
    }
    for (String driver : drivers) {
      findings.add(publishing(driver, node, state));
    }
    return new ClaimReport(claim.getMetadata().getNamespace(), claim.getMetadata().getName(),
        "ResourceClaim", podClaimName, deleting ? "deleting" : "allocated", node, devices,
        reservedFor, findings);
  }

  private static Finding reservation(ResourceClaim claim, Pod pod, List<String> reservedFor) {
    if (pod != null) {
      String podName = pod.getMetadata().getName();
      boolean reserved = nonNull(claim.getStatus().getReservedFor()).stream()
          .anyMatch(r -> "pods".equals(r.getResource()) && (podName.equals(r.getName())
              || Objects.equals(pod.getMetadata().getUid(), r.getUid())));
      return reserved
          ? new Finding("reservedFor", true, "reserved for pod " + podName)
          : new Finding("reservedFor", false, "not reserved for pod " + podName + ": the"
              + " scheduler reserves the claim when it schedules the pod, and the kubelet"
              + " prepares it only for a pod it is reserved for"
              + (reservedFor.isEmpty() ? "" : " (reserved for " + reservedFor + ")"));
    }
    return reservedFor.isEmpty()
        ? new Finding("reservedFor", false, "reserved for no pod: no pod using it is scheduled,"
            + " and the claim will be deallocated")
        : new Finding("reservedFor", true, "reserved for " + String.join(", ", reservedFor));
  }

  private static List<String> conditions(ResourceClaim claim, DeviceRequestAllocationResult r) {
    List<String> out = new ArrayList<>();
    for (AllocatedDeviceStatus status : nonNull(claim.getStatus().getDevices())) {
      if (Objects.equals(status.getDriver(), r.getDriver())
          && Objects.equals(status.getPool(), r.getPool())
          && Objects.equals(status.getDevice(), r.getDevice())) {
        for (Condition c : nonNull(status.getConditions())) {
          out.add(c.getType() + "=" + c.getStatus()
              + (c.getReason() == null ? "" : " (" + c.getReason()
                  + (c.getMessage() == null ? "" : ": " + c.getMessage()) + ")"));
        }
      }
    }
    return out;
  }

  private static void deviceChecks(DeviceRequestAllocationResult result, String id,
      ResourceClaim claim, ClusterState state, List<Finding> findings) {
    Device published = newest(result, state);
    if (published == null) {
      findings.add(new Finding("devicePublished", false, "device " + id + " is no longer"
          + " published by its driver: pods already running keep it, new pods cannot be prepared"
          + " if the driver refuses it"));
    } else {
      for (DeviceTaint taint : nonNull(published.getTaints())) {
        String effect = String.valueOf(taint.getEffect());
        boolean tolerated = nonNull(result.getTolerations()).stream()
            .anyMatch(t -> (t.getKey() == null || t.getKey().equals(taint.getKey()))
                && (t.getEffect() == null || t.getEffect().equals(effect))
                && ("Exists".equals(t.getOperator())
                    || Objects.equals(t.getValue(), taint.getValue())));
        if (!tolerated && (effect.equals("NoExecute") || effect.equals("NoSchedule"))) {
          findings.add(new Finding("deviceTaint", false, "device " + id + " has taint "
              + taint.getKey() + (taint.getValue() == null ? "" : "=" + taint.getValue()) + ":"
              + effect + (effect.equals("NoExecute")
                  ? ", not tolerated: pods using the claim are evicted"
                  : ": new claims avoid the device, this allocation stays")));
        }
      }
    }
    List<String> waiting = new ArrayList<>();
    for (String type : nonNull(result.getBindingConditions())) {
      boolean met = nonNull(claim.getStatus().getDevices()).stream()
          .filter(s -> Objects.equals(s.getDevice(), result.getDevice())
              && Objects.equals(s.getPool(), result.getPool()))
          .flatMap(s -> nonNull(s.getConditions()).stream())
          .anyMatch(c -> type.equals(c.getType()) && "True".equals(c.getStatus()));
      if (!met) {
        waiting.add(type);
      }
    }
    if (!waiting.isEmpty()) {
      findings.add(new Finding("bindingConditions", false, "device " + id + " waits for binding"
          + " conditions " + waiting + " to be True in status.devices; the scheduler binds the"
          + " pod once they are"));
    }
  }

  /** The device as the newest generation of its pool publishes it, or null. */
  private static Device newest(DeviceRequestAllocationResult result, ClusterState state) {
    long generation = -1;
    Device found = null;
    for (ResourceSlice slice : state.slices()) {
      var spec = slice.getSpec();
      if (spec == null || spec.getPool() == null || !Objects.equals(spec.getDriver(),
          result.getDriver()) || !Objects.equals(spec.getPool().getName(), result.getPool())) {
        continue;
      }
      long g = spec.getPool().getGeneration() == null ? 0 : spec.getPool().getGeneration();
      if (g > generation) {
        generation = g;
        found = null;
      }
      if (g == generation && found == null) {
        found = nonNull(spec.getDevices()).stream()
            .filter(d -> result.getDevice().equals(d.getName())).findFirst().orElse(null);
      }
    }
    return found;
  }

  private static Finding publishing(String driver, String node, ClusterState state) {
    Map<String, Long> pools = new TreeMap<>();
    int count = 0;
    for (ResourceSlice slice : state.slices()) {
      var spec = slice.getSpec();
      if (spec == null || !driver.equals(spec.getDriver())
          || (node != null && !node.equals(spec.getNodeName()))) {
        continue;
      }
      count++;
      if (spec.getPool() != null) {
        pools.merge(String.valueOf(spec.getPool().getName()),
            spec.getPool().getGeneration() == null ? 0 : spec.getPool().getGeneration(), Math::max);
      }
    }
    String where = node == null ? "" : " for node " + node;
    if (count == 0) {
      return new Finding("publishing", false, "driver " + driver + " publishes no ResourceSlice"
          + where + ": its kubelet plugin is not running there, not registered with the kubelet,"
          + " or cannot reach the API server; the kubelet cannot prepare the claim");
    }
    StringBuilder detail = new StringBuilder();
    pools.forEach((pool, g) -> detail.append(detail.length() == 0 ? "" : ", ")
        .append("pool ").append(pool).append(" generation ").append(g));
    return new Finding("publishing", true, "driver " + driver + " publishes " + count
        + (count == 1 ? " ResourceSlice" : " ResourceSlices") + where + " (" + detail + ")");
  }

  /** The node a node selector pins an allocation to ({@code metadata.name In [node]}), or null. */
  static String nodeOf(NodeSelector selector) {
    if (selector == null || nonNull(selector.getNodeSelectorTerms()).size() != 1) {
      return null;
    }
    NodeSelectorTerm term = selector.getNodeSelectorTerms().get(0);
    for (NodeSelectorRequirement r : nonNull(term.getMatchFields())) {
      if ("metadata.name".equals(r.getKey()) && "In".equals(r.getOperator())
          && nonNull(r.getValues()).size() == 1) {
        return r.getValues().get(0);
      }
    }
    return null;
  }

  static <T> List<T> nonNull(List<T> list) {
    return list == null ? List.of() : list;
  }
}
