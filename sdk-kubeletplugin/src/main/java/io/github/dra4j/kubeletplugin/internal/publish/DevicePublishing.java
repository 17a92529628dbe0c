package io.github.dra4j.kubeletplugin.internal.publish;

import io.github.dra4j.kubeletplugin.internal.health.DeviceHealthBoard;
import io.github.dra4j.kubeletplugin.internal.health.HealthGauges;
import io.github.dra4j.kubeletplugin.internal.setup.PluginSetup;
import java.util.function.BiConsumer;

/**
 * What a plugin keeps about its devices: their health (the board the driver reports to, and its
 * gauges) when the driver reports it, and their ResourceSlices, published by the plugin or, from
 * {@code DraDriver.start} on, through the driver's {@code PluginContext}. Owned by one plugin;
 * thread-safe.
 */
public final class DevicePublishing implements AutoCloseable {

  /** The devices' health; null when the driver reports none. */
  private final DeviceHealthBoard health;
  /** The health gauge of every reported device; null when the driver reports none. */
  private final HealthGauges gauges;
  private final SlicePublisher slices;
  private final ContextPublisher context;

  /**
   * Creates the board and the publishers; nothing is published yet.
   *
   * @param setup the plugin's setup
   * @param errors where publishing errors go (the driver's handler)
   */
  public DevicePublishing(PluginSetup setup, BiConsumer<Throwable, String> errors) {
    this.health = setup.health() ? new DeviceHealthBoard() : null;
    this.gauges = health == null ? null
        : HealthGauges.following(health, setup.meterRegistry(), setup.driverName());
    this.slices = new SlicePublisher(new PublishTarget(setup.driverName(), setup.nodeName(),
        setup.options().deployment().nodeUid(), setup.kubeClient(),
        setup.options().apiServer().timeout(), setup.meterRegistry()), setup.options().slices(),
        setup.options().health().withTaints(setup.healthTaints()),
        setup.options().observability().nodeEvents(), errors, health);
    this.context = new ContextPublisher(setup.driverName(), slices, errors);
  }

  /**
   * The devices' health.
   *
   * @return the board; null when the driver reports no health
   */
  public DeviceHealthBoard health() {
    return health;
  }

  /**
   * The plugin's publisher.
   *
   * @return the publisher
   */
  public SlicePublisher slices() {
    return slices;
  }

  /**
   * The publisher of the driver's {@code PluginContext}.
   *
   * @return the publisher
   */
  public ContextPublisher context() {
    return context;
  }

  /** Stops publishing and removes the gauges. */
  @Override
  public void close() {
    slices.close();
    if (gauges != null) {
      gauges.close();
    }
  }
}
