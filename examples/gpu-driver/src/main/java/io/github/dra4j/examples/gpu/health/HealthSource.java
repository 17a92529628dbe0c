package io.github.dra4j.examples.gpu.health;

import java.util.List;
import java.util.function.Consumer;

/**
 * Watches the GPUs' health and reports every change as the complete list of current conditions:
 * a GPU without conditions is healthy, and a condition that goes away (the device recovered) is
 * simply no longer in the next list, so the driver removes its taint without a restart.
 */
public interface HealthSource extends AutoCloseable {

  /**
   * Starts watching; calls {@code listener} once with the current conditions, then after every
   * change, from the source's own thread, never two calls at once.
   *
   * @param listener receives the complete list each time
   * @throws Exception if watching cannot start
   */
  void start(Consumer<List<GpuCondition>> listener) throws Exception;

  /** Stops watching; no call to the listener starts after this returns. Must not throw. */
  @Override
  void close();
}
