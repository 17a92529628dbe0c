package io.github.dra4j.kubeletplugin;

import io.github.dra4j.resourceslice.ControllerOptions;
import io.github.dra4j.resourceslice.DriverResources;
import io.github.dra4j.resourceslice.Owner;
import io.github.dra4j.resourceslice.ResourceSliceController;
import java.util.function.BiConsumer;

/**
 * Publishes the driver's devices through a {@link ResourceSliceController} started on first use,
 * as the Go helper's {@code PublishResources} does: the Node is the owner, and every controller
 * error reaches the driver's {@link DraDriver#handleError} wrapped in {@link
 * RecoverableException}, through the plugin's error delivery thread. Owned by one plugin;
 * thread-safe (guarded by its monitor).
 */
final class SlicePublisher implements AutoCloseable {

  private final PluginSettings settings;
  private final BiConsumer<Throwable, String> errors;
  private ResourceSliceController controller;
  private boolean closed;

  SlicePublisher(PluginSettings settings, BiConsumer<Throwable, String> errors) {
    this.settings = settings;
    this.errors = errors;
  }

  synchronized void publish(DriverResources resources) {
    if (closed) {
      throw new IllegalStateException("the plugin is closed; cannot publish resources");
    }
    if (settings.nodeName().isEmpty()) {
      throw new IllegalStateException("no NodeName was set to publish resources");
    }
    if (controller != null) {
      controller.update(resources);
      return;
    }
    ControllerOptions.Builder options = ResourceSliceController.builder()
        .driverName(settings.driverName())
        .client(settings.kubeClient().get())
        .owner(Owner.node(settings.nodeName(), settings.nodeUid()))
        .resources(resources)
        .meterRegistry(settings.meterRegistry())
        .startTimeout(settings.apiServerTimeout())
        .errorHandler((error, message) -> errors.accept(new RecoverableException(error), message));
    if (!settings.reconcilePoolWithName().isEmpty()) {
      options.reconcilePoolWithName(settings.reconcilePoolWithName());
    }
    if (settings.sliceSyncDelay() != null) {
      options.syncDelay(settings.sliceSyncDelay());
    }
    try {
      controller = options.start();
    } catch (RuntimeException e) {
      throw new IllegalStateException("start ResourceSlice controller: " + e.getMessage(), e);
    }
  }

  synchronized ResourceSliceController controller() {
    return controller;
  }

  @Override
  public synchronized void close() {
    closed = true;
    if (controller != null) {
      controller.close();
    }
  }
}
