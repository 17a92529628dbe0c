package io.github.dra4j.metrics;

import io.github.dra4j.metrics.internal.CpuMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;

/**
 * The JVM's own meters, opt-in: memory pools and buffers, garbage collections, threads, class
 * loading, CPU, uptime and open file descriptors, under Micrometer's standard names ({@code
 * jvm_memory_used_bytes}, {@code jvm_gc_pause_seconds}, {@code jvm_threads_live_threads}, {@code
 * jvm_classes_loaded_classes}, {@code process_uptime_seconds}, {@code process_files_open_files},
 * ...) and, for the CPU, Prometheus' ({@code process_cpu_seconds_total}, as {@code promtool
 * check metrics} wants it). Close it to stop listening for garbage collections. Owned by whoever
 * bound it.
 */
public final class JvmMetrics implements AutoCloseable {

  private final JvmGcMetrics gc;

  private JvmMetrics(JvmGcMetrics gc) {
    this.gc = gc;
  }

  /**
   * Registers the JVM meters.
   *
   * @param registry where
   * @return a handle to close when the registry is no longer served
   */
  public static JvmMetrics bindTo(MeterRegistry registry) {
    new JvmMemoryMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    CpuMetrics.bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    new FileDescriptorMetrics().bindTo(registry);
    JvmGcMetrics gc = new JvmGcMetrics();
    gc.bindTo(registry);
    return new JvmMetrics(gc);
  }

  /** Stops listening for garbage collections. */
  @Override
  public void close() {
    gc.close();
  }
}
