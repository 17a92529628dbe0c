package io.github.dra4j.lifecycle;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.kubeletplugin.CallContext;
import io.github.dra4j.kubeletplugin.DeviceHealth;
import io.github.dra4j.kubeletplugin.HealthTaints;
import io.github.dra4j.kubeletplugin.PluginContext;
import io.github.dra4j.kubeletplugin.TaintEffect;
import io.github.dra4j.resourceclaim.DriverAllocation;
import io.github.dra4j.resourceslice.DriverResources;
import io.github.dra4j.resourceslice.Pool;
import java.util.List;
import java.util.Optional;

/**
 * A claim driver that, as a vendor's would, finds one of its two devices unhealthy while it
 * starts and publishes both, through its {@link PluginContext} only, with its own health taint
 * ({@code example.com/broken}, NoSchedule). It prepares nothing.
 */
final class TaintingDriver implements ClaimDriver<TaintingDriver.State> {

  /** The driver keeps no state per claim. */
  record State(String note) {}

  private volatile PluginContext context;

  ClaimLifecycle<State> lifecycle() {
    return ClaimLifecycle.builder(this, State.class).build();
  }

  PluginContext context() {
    return context;
  }

  @Override
  public void start(PluginContext plugin) {
    context = plugin;
    plugin.deviceHealth().report(DeviceHealth.healthy("node-1", "gpu-0"),
        DeviceHealth.unhealthy("node-1", "gpu-1", "ECC errors"));
    plugin.publishResources(DriverResources.of("node-1", Pool.builder()
        .devices(List.of(new DeviceBuilder().withName("gpu-0").build(),
            new DeviceBuilder().withName("gpu-1").build()))
        .devicesMayBeTainted(true).build()));
  }

  @Override
  public boolean reportsDeviceHealth() {
    return true;
  }

  @Override
  public HealthTaints healthTaints() {
    return HealthTaints.whenUnhealthy("example.com/broken", TaintEffect.NO_SCHEDULE);
  }

  @Override
  public PreparedClaim<State> prepare(DriverAllocation allocation, ResourceClaim claim,
      CallContext context) {
    throw new UnsupportedOperationException("prepares nothing");
  }

  @Override
  public void unprepare(DriverAllocation allocation, State state, CallContext context) {}

  @Override
  public void rollback(DriverAllocation allocation, Optional<State> state, CallContext context) {}
}
