package io.github.dra4j.benchmarks.clusterscale;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.kubeletplugin.CallContext;
import io.github.dra4j.kubeletplugin.DraDriver;
import io.github.dra4j.kubeletplugin.PrepareResult;
import io.github.dra4j.kubeletplugin.UnprepareResult;
import io.github.dra4j.lifecycle.ClaimDriver;
import io.github.dra4j.lifecycle.ClaimLifecycle;
import io.github.dra4j.lifecycle.PreparedClaim;
import io.github.dra4j.resourceclaim.AllocatedDevice;
import io.github.dra4j.resourceclaim.ClaimReference;
import io.github.dra4j.resourceclaim.DriverAllocation;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The drivers the simulated nodes run. Neither touches the API server itself: every request the
 * benchmark counts is the SDK's.
 */
final class ScaleDrivers {

  private ScaleDrivers() {}

  /**
   * A new driver instance for one plugin (a {@code ClaimLifecycle} serves exactly one).
   *
   * @param setup which kind of driver
   * @param cdiDirectory the node's CDI spec directory
   * @return the driver to hand to {@code KubeletPlugin.builder}
   */
  static DraDriver create(DriverSetup setup, Path cdiDirectory) {
    if (!setup.lifecycle()) {
      return new PlainDriver();
    }
    return ClaimLifecycle.builder(new EnvDriver(), Void.class).cdiDirectory(cdiDirectory)
        .build();
  }

  /** Gives each allocated device an environment variable naming it; keeps no state. */
  private static final class EnvDriver implements ClaimDriver<Void> {
    @Override
    public PreparedClaim<Void> prepare(DriverAllocation allocation, ResourceClaim claim,
        CallContext context) {
      PreparedClaim.Builder<Void> prepared = PreparedClaim.builder(null);
      for (AllocatedDevice device : allocation.devices()) {
        prepared.device(device, edits -> edits.env("SCALE_DEVICE", device.device()));
      }
      return prepared.build();
    }

    @Override
    public void unprepare(DriverAllocation allocation, Void state, CallContext context) {
      // Nothing to undo: prepare changed nothing on the node.
    }

    @Override
    public void rollback(DriverAllocation allocation, Optional<Void> state,
        CallContext context) {
      // Nothing to undo: prepare changes nothing on the node.
    }
  }

  /**
   * A driver written against {@code DraDriver} directly, as the README's smallest example: no
   * checkpoint, so it cannot tell a claim it prepared before and every prepare gets the full claim.
   */
  private static final class PlainDriver implements DraDriver {
    @Override
    public Map<String, PrepareResult> prepareResourceClaims(List<ResourceClaim> claims,
        CallContext context) {
      Map<String, PrepareResult> results = new HashMap<>();
      for (ResourceClaim claim : claims) {
        results.put(claim.getMetadata().getUid(), PrepareResult.prepared());
      }
      return results;
    }

    @Override
    public Map<String, UnprepareResult> unprepareResourceClaims(List<ClaimReference> claims,
        CallContext context) {
      Map<String, UnprepareResult> results = new HashMap<>();
      for (ClaimReference claim : claims) {
        results.put(claim.uid(), UnprepareResult.ok());
      }
      return results;
    }
  }
}
