package io.github.dra4j.testing.kubelet;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.kubeletplugin.CallContext;
import io.github.dra4j.kubeletplugin.DraDriver;
import io.github.dra4j.kubeletplugin.PrepareResult;
import io.github.dra4j.kubeletplugin.PreparedDevice;
import io.github.dra4j.kubeletplugin.UnprepareResult;
import io.github.dra4j.resourceclaim.ClaimReference;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A tiny driver: each allocation result of its driver becomes one device with CDI ID {@code
 * example.com/gpu=<uid>-<device>} and share ID {@code share-<device>}; claims named {@code fail-*}
 * fail; a claim named {@code boom} fails the whole call. Records which claim UIDs it saw.
 * Thread-safe.
 */
final class TestDriver implements DraDriver {

  private final String driverName;
  private final boolean health;
  private final List<String> calls = new ArrayList<>();

  TestDriver(String driverName) {
    this(driverName, false);
  }

  TestDriver(String driverName, boolean health) {
    this.driverName = driverName;
    this.health = health;
  }

  /** Calls seen, as {@code prepare:<uid>} and {@code unprepare:<uid>}. */
  synchronized List<String> calls() {
    return List.copyOf(calls);
  }

  private synchronized void saw(String operation, String uid) {
    calls.add(operation + ":" + uid);
  }

  @Override
  public Map<String, PrepareResult> prepareResourceClaims(List<ResourceClaim> claims,
      CallContext context) {
    Map<String, PrepareResult> results = new LinkedHashMap<>();
    for (ResourceClaim claim : claims) {
      String uid = claim.getMetadata().getUid();
      String name = claim.getMetadata().getName();
      saw("prepare", uid);
      if (name.equals("boom")) {
        throw new IllegalStateException("driver exploded on " + name);
      }
      if (name.startsWith("fail-")) {
        results.put(uid, PrepareResult.failed("cannot prepare " + name));
        continue;
      }
      List<PreparedDevice> devices = new ArrayList<>();
      for (DeviceRequestAllocationResult result : claim.getStatus().getAllocation().getDevices()
          .getResults()) {
        if (result.getDriver().equals(driverName)) {
          devices.add(PreparedDevice.builder(result.getPool(), result.getDevice())
              .request(result.getRequest())
              .cdiDeviceId("example.com/gpu=" + uid + "-" + result.getDevice())
              .shareId("share-" + result.getDevice())
              .build());
        }
      }
      results.put(uid, PrepareResult.prepared(devices));
    }
    return results;
  }

  @Override
  public Map<String, UnprepareResult> unprepareResourceClaims(List<ClaimReference> claims,
      CallContext context) {
    Map<String, UnprepareResult> results = new LinkedHashMap<>();
    for (ClaimReference claim : claims) {
      saw("unprepare", claim.uid());
      results.put(claim.uid(), claim.name().startsWith("fail-")
          ? UnprepareResult.failed("cannot unprepare " + claim.name())
          : UnprepareResult.ok());
    }
    return results;
  }

  @Override
  public boolean reportsDeviceHealth() {
    return health;
  }
}
