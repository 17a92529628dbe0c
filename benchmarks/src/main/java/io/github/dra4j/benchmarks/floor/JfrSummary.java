package io.github.dra4j.benchmarks.floor;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where a driver's prepare calls spend their time, from a JFR recording of the driver under
 * load ({@link FloorComparisonBenchmark} with {@code -Dprofile=<dir>} makes them): execution
 * samples by thread, by owner (the first frame outside the JDK: a library or a part of the SDK;
 * these add up to all samples), by part of the hot path (a sample counts for a part if any frame
 * of its stack belongs to it, so parts overlap), by the method on top of the stack, and sampled
 * allocations by class and by the first SDK or library frame that allocated. A sample stands for
 * one sampling period of a thread running Java code, so samples times the period over the calls
 * made is an estimate of CPU per call; time in the kernel (socket writes, futex wake-ups of a
 * thread hop), in the JIT compiler and in the GC is not sampled, and JDK 17's sampler misses many
 * stacks it cannot walk, so this estimate is low: compare it with the CPU read from {@code /proc}.
 */
public final class JfrSummary {

  /**
   * The parts of the hot path, each recognised by a frame of its stack. Order is the report's.
   */
  private static final Map<String, Predicate<String>> PARTS = parts();

  private JfrSummary() {}

  private static Map<String, Predicate<String>> parts() {
    Map<String, Predicate<String>> parts = new LinkedHashMap<>();
    parts.put("NodeService.prepare (the SDK's handler, all of it)",
        m -> m.startsWith("io.github.dra4j.kubeletplugin.internal.node.NodeService.prepare"));
    parts.put("claim lookup (ClaimResolver, claim sources, conversion)",
        m -> m.startsWith("io.github.dra4j.kubeletplugin.internal.claims.")
            || m.startsWith("io.github.dra4j.kubeletplugin.internal.node.ClaimResolver."));
    parts.put("fabric8 client and model, Jackson",
        m -> m.startsWith("io.fabric8.") || m.startsWith("tools.jackson.")
            || m.startsWith("com.fasterxml.jackson."));
    parts.put("Vert.x (fabric8's HTTP client)", m -> m.startsWith("io.vertx."));
    parts.put("protobuf (parse, build, serialize)", m -> m.startsWith("com.google.protobuf."));
    parts.put("MDC (SLF4J)", m -> m.startsWith("org.slf4j.MDC")
        || m.startsWith("org.slf4j.helpers.BasicMDCAdapter"));
    parts.put("logging (SLF4J, not MDC)", m -> m.startsWith("org.slf4j.")
        && !m.startsWith("org.slf4j.MDC") && !m.startsWith("org.slf4j.helpers.BasicMDCAdapter"));
    parts.put("Micrometer (timers, counters)", m -> m.startsWith("io.micrometer."));
    parts.put("CallObserver (interceptor: MDC, timer, in-flight gauge)",
        m -> m.startsWith("io.github.dra4j.kubeletplugin.internal.observability.CallObserver"));
    parts.put("ClaimMeters (per-claim counter and timer)",
        m -> m.startsWith("io.github.dra4j.kubeletplugin.internal.observability.ClaimMeters"));
    parts.put("serialization lock", m -> m.startsWith(
        "io.github.dra4j.kubeletplugin.internal.serialize."));
    parts.put("CallContext", m -> m.startsWith("io.github.dra4j.kubeletplugin.CallContext"));
    parts.put("the driver (FloorPeerDriver)", m -> m.startsWith(
        "io.github.dra4j.benchmarks.floor.FloorPeerDriver"));
    parts.put("gRPC (io.grpc)", m -> m.startsWith("io.grpc."));
    parts.put("Netty (io.netty)", m -> m.startsWith("io.netty."));
    parts.put("executor hand-over (ThreadPoolExecutor, SerializingExecutor, queues)",
        m -> m.startsWith("java.util.concurrent.ThreadPoolExecutor.")
            || m.startsWith("java.util.concurrent.SynchronousQueue")
            || m.startsWith("java.util.concurrent.LinkedTransferQueue")
            || m.startsWith("io.grpc.internal.SerializingExecutor."));
    return Collections.unmodifiableMap(parts);
  }

  /**
   * Who owns a sample: the first frame from the top outside the JDK, so that a {@code HashMap}
   * or {@code String} method counts for the code that called it. In order: the first owner whose
   * test matches that frame.
   */
  private static final List<Map.Entry<String, Predicate<String>>> OWNERS = List.of(
      Map.entry("protobuf", m -> m.startsWith("com.google.protobuf.")),
      Map.entry("SLF4J MDC", m -> m.startsWith("org.slf4j.MDC")
          || m.startsWith("org.slf4j.helpers.BasicMDCAdapter")),
      Map.entry("SLF4J logging", m -> m.startsWith("org.slf4j.")),
      Map.entry("Micrometer", m -> m.startsWith("io.micrometer.")),
      Map.entry("fabric8 and Jackson", m -> m.startsWith("io.fabric8.")
          || m.startsWith("tools.jackson.") || m.startsWith("com.fasterxml.jackson.")),
      Map.entry("Vert.x", m -> m.startsWith("io.vertx.")),
      Map.entry("the driver", m -> m.startsWith("io.github.dra4j.benchmarks.")),
      Map.entry("SDK claim lookup", m -> m.startsWith(
          "io.github.dra4j.kubeletplugin.internal.claims.")
          || m.startsWith("io.github.dra4j.kubeletplugin.internal.node.ClaimResolver")),
      Map.entry("SDK serialization lock", m -> m.startsWith(
          "io.github.dra4j.kubeletplugin.internal.serialize.")),
      Map.entry("SDK CallObserver", m -> m.startsWith(
          "io.github.dra4j.kubeletplugin.internal.observability.CallObserver")),
      Map.entry("SDK ClaimMeters", m -> m.startsWith(
          "io.github.dra4j.kubeletplugin.internal.observability.ClaimMeters")),
      Map.entry("SDK checks and answer (NodeService, NameRules, PrepareAnswer, ...)",
          m -> m.startsWith("io.github.dra4j.")),
      Map.entry("gRPC", m -> m.startsWith("io.grpc.")),
      Map.entry("Netty", m -> m.startsWith("io.netty.")),
      Map.entry("Guava", m -> m.startsWith("com.google.common.")));

  /** The owner of a sample's stack (top first); see {@link #OWNERS}. */
  private static String owner(List<String> methods) {
    for (String method : methods) {
      if (method.startsWith("java.") || method.startsWith("jdk.") || method.startsWith("sun.")) {
        continue;
      }
      return OWNERS.stream().filter(o -> o.getValue().test(method)).map(Map.Entry::getKey)
          .findFirst().orElse("other: " + method.substring(0, Math.max(0,
              method.lastIndexOf('.', method.lastIndexOf('.') - 1))));
    }
    return methods.stream().anyMatch(m -> m.startsWith("java.util.concurrent."))
        ? "JDK only: thread pool, queues, locks" : "JDK only: other";
  }

  /**
   * Summarizes recordings given on the command line: {@code JfrSummary <calls made> <sampling
   * period in ms> <file.jfr>...}.
   *
   * @param args the calls each recording covers, the sampling period, then the recordings
   * @throws IOException if a recording cannot be read
   */
  public static void main(String[] args) throws IOException {
    long calls = Long.parseLong(args[0]);
    Duration period = Duration.ofMillis(Long.parseLong(args[1]));
    for (int i = 2; i < args.length; i++) {
      System.out.println(args[i] + ":");
      System.out.println(summarize(Path.of(args[i]), calls, period, 15));
    }
  }

  /**
   * The summary of one recording.
   *
   * @param recording the JFR file
   * @param calls the calls made while it recorded, for the per-call estimates
   * @param period the execution sampling period it recorded with
   * @param top how many methods, classes and sites to list
   * @return the report's lines
   * @throws IOException if the recording cannot be read
   */
  public static String summarize(Path recording, long calls, Duration period, int top)
      throws IOException {
    Map<String, Long> threads = new HashMap<>();
    Map<String, Long> partSamples = new LinkedHashMap<>();
    PARTS.keySet().forEach(part -> partSamples.put(part, 0L));
    Map<String, Long> selfMethods = new HashMap<>();
    Map<String, Long> owners = new HashMap<>();
    Map<String, Long> sdkMethods = new HashMap<>();
    Map<String, Long> allocatedClasses = new HashMap<>();
    Map<String, Long> allocationSites = new HashMap<>();
    try (RecordingFile file = new RecordingFile(recording)) {
      while (file.hasMoreEvents()) {
        RecordedEvent event = file.readEvent();
        String type = event.getEventType().getName();
        if (type.equals("jdk.ExecutionSample")) {
          threads.merge(threadGroup(event), 1L, Long::sum);
          List<String> methods = methods(event.getStackTrace());
          if (!methods.isEmpty()) {
            selfMethods.merge(methods.get(0), 1L, Long::sum);
          }
          owners.merge(owner(methods), 1L, Long::sum);
          methods.stream().filter(m -> m.startsWith("io.github.dra4j.kubeletplugin.")).findFirst()
              .ifPresent(m -> sdkMethods.merge(m, 1L, Long::sum));
          PARTS.forEach((part, test) -> {
            if (methods.stream().anyMatch(test)) {
              partSamples.merge(part, 1L, Long::sum);
            }
          });
        } else if (type.equals("jdk.ObjectAllocationSample")) {
          long weight = event.getLong("weight");
          allocatedClasses.merge(event.getClass("objectClass").getName(), weight, Long::sum);
          allocationSites.merge(site(methods(event.getStackTrace())), weight, Long::sum);
        }
      }
    }
    long samples = threads.values().stream().mapToLong(Long::longValue).sum();
    long allocated = allocatedClasses.values().stream().mapToLong(Long::longValue).sum();
    double perSampleMicros = period.toNanos() / 1000.0;
    StringBuilder out = new StringBuilder();
    out.append(String.format("  %d execution samples (every %s), ~%.0f µs of Java code per call;"
        + " %.1f KB allocated per call (sampled estimate)%n", samples,
        period.toMillis() + " ms", samples * perSampleMicros / calls,
        allocated / 1e3 / calls));
    out.append("  by thread: ").append(ranked(threads, top, samples, perSampleMicros, calls))
        .append('\n');
    out.append("  by owner (exclusive: the first frame outside the JDK):\n");
    top(owners, OWNERS.size() + 5).forEach(e -> out.append(String.format("    %-70s %6d %5.1f%%"
        + " ~%5.1f µs/call%n", e.getKey(), e.getValue(),
        100.0 * e.getValue()
            / Math.max(1, samples),
        e.getValue() * perSampleMicros / calls)));
    out.append("  by part of the hot path (inclusive, overlapping):\n");
    partSamples.forEach((part, count) -> out.append(String.format("    %-70s %6d %5.1f%%"
        + " ~%5.1f µs/call%n", part, count, 100.0 * count / Math.max(1, samples),
        count * perSampleMicros / calls)));
    out.append("  SDK methods nearest the top (the first io.github.dra4j.kubeletplugin frame, with"
        + " the JDK and library code it called):\n");
    top(sdkMethods, top).forEach(e -> out.append(String.format("    %6d %5.1f%%  %s%n",
        e.getValue(), 100.0 * e.getValue() / Math.max(1, samples), e.getKey())));
    out.append("  top of stack (self time):\n");
    top(selfMethods, top).forEach(e -> out.append(String.format("    %6d %5.1f%%  %s%n",
        e.getValue(), 100.0 * e.getValue() / Math.max(1, samples), e.getKey())));
    out.append("  allocations by class:\n");
    top(allocatedClasses, top).forEach(e -> out.append(String.format("    %5.1f%% %8.0f B/call"
        + "  %s%n", 100.0 * e.getValue() / Math.max(1, allocated), e.getValue() / (double) calls,
        e.getKey())));
    out.append("  allocations by site (first frame outside java.*, jdk.*, sun.*):\n");
    top(allocationSites, top).forEach(e -> out.append(String.format("    %5.1f%% %8.0f B/call"
        + "  %s%n", 100.0 * e.getValue() / Math.max(1, allocated), e.getValue() / (double) calls,
        e.getKey())));
    return out.toString();
  }

  /** The sampled thread's name, digits replaced: one group per pool. */
  private static String threadGroup(RecordedEvent event) {
    RecordedThread thread = event.getThread("sampledThread");
    String name = thread == null ? null : thread.getJavaName();
    return name == null ? "?" : name.replaceAll("[0-9]+", "#");
  }

  /** The stack's methods as {@code class.method}, top first. */
  private static List<String> methods(RecordedStackTrace stack) {
    if (stack == null) {
      return List.of();
    }
    return stack.getFrames().stream().filter(RecordedFrame::isJavaFrame)
        .map(f -> f.getMethod().getType().getName() + "." + f.getMethod().getName()).toList();
  }

  /** The first frame of a stack that is not the JDK's own: who allocated. */
  private static String site(List<String> methods) {
    return methods.stream().filter(m -> !m.startsWith("java.") && !m.startsWith("jdk.")
        && !m.startsWith("sun.")).findFirst().orElse(methods.isEmpty() ? "?" : methods.get(0));
  }

  private static List<Map.Entry<String, Long>> top(Map<String, Long> counts, int top) {
    return counts.entrySet().stream()
        .sorted(Map.Entry.<String, Long> comparingByValue().reversed()).limit(top).toList();
  }

  private static String ranked(Map<String, Long> counts, int top, long samples,
      double perSampleMicros, long calls) {
    return top(counts, top).stream().map(e -> String.format("%s %d (%.0f%%, ~%.0f µs/call)",
        e.getKey(), e.getValue(), 100.0 * e.getValue() / Math.max(1, samples),
        e.getValue() * perSampleMicros / calls)).collect(Collectors.joining(", "));
  }
}
