package io.github.dra4j.kubeletplugin.internal.publish;

import io.github.dra4j.resourceslice.DriverResources;
import java.util.function.BiConsumer;

/**
 * {@code PluginContext.publishResources}: before the plugin serves (from {@code DraDriver.start},
 * when the API client does not exist yet) the resources are kept; {@link #serving()} publishes the
 * last of them on a thread of its own, so that the plugin's start does not wait for the API
 * server. Afterwards each call publishes at once, as {@code KubeletPlugin.publishResources}.
 * Owned by one plugin; guarded by its monitor.
 */
public final class ContextPublisher {

  private final String driverName;
  private final SlicePublisher slices;
  private final BiConsumer<Throwable, String> errors;
  private DriverResources pending;
  private boolean serving;

  public ContextPublisher(String driverName, SlicePublisher slices,
      BiConsumer<Throwable, String> errors) {
    this.driverName = driverName;
    this.slices = slices;
    this.errors = errors;
  }

  public void publish(DriverResources resources) {
    synchronized (this) {
      if (!serving) {
        pending = resources;
        return;
      }
    }
    slices.publish(resources);
  }

  /** The plugin serves: what the driver gave at start is published; a failure is reported. */
  public void serving() {
    DriverResources resources;
    synchronized (this) {
      serving = true;
      resources = pending;
      pending = null;
    }
    if (resources == null) {
      return;
    }
    Thread thread = new Thread(() -> {
      try {
        slices.publish(resources);
      } catch (IllegalStateException e) {
        errors.accept(e, "publish the resources driver " + driverName + " gave at start");
      }
    }, "dra4j-publish-" + driverName);
    thread.setDaemon(true);
    thread.start();
  }
}
