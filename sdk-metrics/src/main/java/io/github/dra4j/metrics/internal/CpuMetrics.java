package io.github.dra4j.metrics.internal;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/**
 * The CPU meters of the process and the node, named so that {@code promtool check metrics}
 * passes them: {@code process_cpu_seconds_total} (the name Prometheus' own client libraries
 * use), {@code process_cpu_usage}, {@code system_cpu_usage} and {@code system_load_average_1m}.
 * Micrometer's own {@code ProcessorMetrics} names the CPU time in nanoseconds ({@code
 * process_cpu_time_ns_total}) and the processor count {@code system_cpu_count}, both of which
 * promtool's lint refuses. Stateless.
 */
public final class CpuMetrics {

  private CpuMetrics() {}

  /**
   * Registers the meters the JVM can give.
   *
   * @param registry where
   */
  public static void bindTo(MeterRegistry registry) {
    OperatingSystemMXBean system = ManagementFactory.getOperatingSystemMXBean();
    if (system.getSystemLoadAverage() >= 0) {
      Gauge.builder("system.load.average.1m", system, OperatingSystemMXBean::getSystemLoadAverage)
          .description("The number of runnable tasks on the node's processors, averaged over"
              + " a minute")
          .register(registry);
    }
    if (system instanceof com.sun.management.OperatingSystemMXBean os) {
      FunctionCounter.builder("process.cpu", os, bean -> bean.getProcessCpuTime() / 1e9)
          .baseUnit("seconds")
          .description("The CPU time the process has used")
          .register(registry);
      Gauge.builder("process.cpu.usage", os,
          com.sun.management.OperatingSystemMXBean::getProcessCpuLoad)
          .description("The process's recent CPU usage, 0 to 1 of the processors it may use")
          .register(registry);
      Gauge.builder("system.cpu.usage", os,
          com.sun.management.OperatingSystemMXBean::getCpuLoad)
          .description("The node's recent CPU usage, 0 to 1")
          .register(registry);
    }
  }
}
