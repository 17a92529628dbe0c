package io.github.dra4j.benchmarks.allocator;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacityBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import io.github.dra4j.structured.AllocationOutcome;
import io.github.dra4j.structured.AllocatorInputs;
import io.github.dra4j.structured.StructuredAllocator;
import io.github.dra4j.cel.CompiledSelector;
import io.github.dra4j.cel.DeviceSelectorEnvironment;
import io.github.dra4j.cel.SelectorCompileException;
import io.github.dra4j.cel.SelectorDevice;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Locale;

/**
 * Prints the speed of the structured allocator's two hot paths, single-threaded:
 *
 * <ol>
 *   <li>selector evaluations per second: DeviceClass selectors evaluated over 10,000 devices
 *       (device views built once, as the allocator does per attempt). Target: at least 1 million
 *       per second per core.
 *   <li>allocation time for 1,000 claims of one device each on a node of 64 devices, each claim
 *       allocated against the claims allocated before it. Reported twice: <em>filling</em> (nothing
 *       is freed, so claims 65 to 1,000 are unsatisfiable after scanning a full node) and
 *       <em>rolling</em> (when the node is full the oldest claim is freed first, so every claim is
 *       allocated, on a node with 63 devices in use). Target: under 1 ms per claim.
 * </ol>
 */
public final class AllocatorBenchmark {

  private static final String DRIVER = "gpu.example.com";
  private static final String CLASS_SELECTOR = "device.driver == \"gpu.example.com\"";
  private static final String RICH_SELECTOR = "device.driver == \"gpu.example.com\""
      + " && device.attributes[\"gpu.example.com\"].model.startsWith(\"A100\")"
      + " && device.capacity[\"gpu.example.com\"].memory.compareTo(quantity(\"40Gi\")) >= 0";
  private static final int NODE_DEVICES = 64;
  private static final int CLAIMS = 1_000;

  private AllocatorBenchmark() {}

  /**
   * Runs the benchmark and prints its figures.
   *
   * @param args unused
   * @throws SelectorCompileException never (the selectors are valid)
   */
  public static void main(String[] args) throws SelectorCompileException {
    System.out.printf(Locale.ROOT, "Java %s, %d cores visible%n",
        System.getProperty("java.version"), Runtime.getRuntime().availableProcessors());
    DeviceSelectorEnvironment environment = environments();
    List<Device> devices = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      devices.add(gpu("gpu-" + i, i));
    }
    List<SelectorDevice> views = new ArrayList<>();
    double buildMicros = 0;
    for (int round = 0; round < 5; round++) {
      views.clear();
      long buildStart = System.nanoTime();
      for (Device device : devices) {
        views.add(SelectorDevice.of(DRIVER, device));
      }
      buildMicros = (System.nanoTime() - buildStart) / 1e3 / views.size();
    }
    System.out.printf(Locale.ROOT, "device views: %.2f us each to build (once per device and"
        + " allocation attempt, for devices that reach the selectors)%n", buildMicros);
    evaluations(environment, CLASS_SELECTOR, views);
    evaluations(environment, RICH_SELECTOR, views);

    StructuredAllocator allocator = StructuredAllocator.create();
    allocations(allocator, false);
    allocations(allocator, true);
  }

  /**
   * Prints what the shared CEL environment costs: building it on first access, then every later
   * access, and for comparison a private environment built in the warm JVM.
   */
  private static DeviceSelectorEnvironment environments() {
    long start = System.nanoTime();
    DeviceSelectorEnvironment shared = DeviceSelectorEnvironment.stored();
    long first = System.nanoTime() - start;
    start = System.nanoTime();
    DeviceSelectorEnvironment again = DeviceSelectorEnvironment.stored();
    long second = System.nanoTime() - start;
    start = System.nanoTime();
    DeviceSelectorEnvironment.create();
    long privateBuild = System.nanoTime() - start;
    System.out.printf(Locale.ROOT, "CEL environment: first access builds it in %.1f ms, a later"
        + " access takes %.3f ms (%s instance); a private one built now takes %.1f ms%n",
        first / 1e6, second / 1e6, again == shared ? "same" : "another", privateBuild / 1e6);
    return shared;
  }

  private static void evaluations(DeviceSelectorEnvironment environment, String expression,
      List<SelectorDevice> views) throws SelectorCompileException {
    CompiledSelector selector = environment.compile(expression);
    long matches = 0;
    for (int round = 0; round < 60; round++) {
      for (SelectorDevice view : views) {
        matches += selector.evaluate(view).matches() ? 1 : 0;
      }
    }
    long evaluations = 0;
    long start = System.nanoTime();
    long end = start + 4_000_000_000L;
    while (System.nanoTime() < end) {
      for (SelectorDevice view : views) {
        matches += selector.evaluate(view).matches() ? 1 : 0;
      }
      evaluations += views.size();
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    System.out.printf(Locale.ROOT, "(a) %,.0f evaluations/s over %,d devices, 1 thread: %s%n",
        evaluations / seconds, views.size(), expression);
    if (matches == 0) {
      System.out.println("    (no device matched)");
    }
  }

  private static void allocations(StructuredAllocator allocator, boolean rolling) {
    List<ResourceSlice> slices = List.of(nodeSlice());
    List<DeviceClass> classes = List.of(new DeviceClassBuilder()
        .withNewMetadata().withName("gpu").endMetadata()
        .withNewSpec().addNewSelector().withNewCel().withExpression(CLASS_SELECTOR).endCel()
        .endSelector()
        .endSpec().build());
    for (int round = 0; round < 3; round++) {
      run(allocator, slices, classes, rolling, CLAIMS);
    }
    long[] nanos = new long[CLAIMS];
    int unsatisfiable = run(allocator, slices, classes, rolling, CLAIMS, nanos);
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    double mean = Arrays.stream(nanos).average().orElse(0) / 1e6;
    System.out.printf(Locale.ROOT,
        "(b) %s: %,d claims of 1 device on a %d-device node: mean %.3f ms,"
            + " p50 %.3f ms, p99 %.3f ms per claim, total %.1f ms; %d allocated, %d unsatisfiable%n",
        rolling ? "rolling (oldest claim freed when full)" : "filling (nothing freed)",
        CLAIMS, NODE_DEVICES, mean, sorted[CLAIMS / 2] / 1e6, sorted[CLAIMS * 99 / 100] / 1e6,
        Arrays.stream(nanos).sum() / 1e6, CLAIMS - unsatisfiable, unsatisfiable);
  }

  private static int run(StructuredAllocator allocator, List<ResourceSlice> slices,
      List<DeviceClass> classes, boolean rolling, int claims) {
    return run(allocator, slices, classes, rolling, claims, new long[claims]);
  }

  /** Allocates the claims one by one; returns how many were unsatisfiable. */
  private static int run(StructuredAllocator allocator, List<ResourceSlice> slices,
      List<DeviceClass> classes, boolean rolling, int claims, long[] nanos) {
    Deque<ResourceClaim> allocated = new ArrayDeque<>();
    int unsatisfiable = 0;
    for (int i = 0; i < claims; i++) {
      if (rolling && allocated.size() == NODE_DEVICES) {
        allocated.removeFirst();
      }
      AllocatorInputs inputs = AllocatorInputs.builder()
          .deviceClasses(classes).slices(slices).node("node-1")
          .allocatedClaims(new ArrayList<>(allocated)).build();
      ResourceClaim claim = claim("claim-" + i);
      long start = System.nanoTime();
      AllocationOutcome outcome = allocator.allocate(claim, inputs);
      nanos[i] = System.nanoTime() - start;
      if (outcome instanceof AllocationOutcome.Allocated done) {
        allocated.addLast(done.claim());
      } else {
        unsatisfiable++;
      }
    }
    return unsatisfiable;
  }

  private static Device gpu(String name, int index) {
    return new DeviceBuilder().withName(name)
        .addToAttributes("model",
            new DeviceAttributeBuilder().withString(index % 2 == 0 ? "A100-SXM4-80GB" : "H100")
                .build())
        .addToAttributes("index", new DeviceAttributeBuilder().withInt((long) index).build())
        .addToAttributes("driverVersion",
            new DeviceAttributeBuilder().withVersion("550.54.15").build())
        .addToCapacity("memory",
            new DeviceCapacityBuilder().withValue(new Quantity("80Gi")).build())
        .build();
  }

  private static ResourceSlice nodeSlice() {
    List<Device> devices = new ArrayList<>();
    for (int i = 0; i < NODE_DEVICES; i++) {
      devices.add(gpu("gpu-" + i, i));
    }
    return new ResourceSliceBuilder().withNewMetadata().withName("node-1-gpus").endMetadata()
        .withNewSpec().withDriver(DRIVER).withNodeName("node-1")
        .withNewPool().withName("node-1").withGeneration(1L).withResourceSliceCount(1L).endPool()
        .withDevices(devices).endSpec().build();
  }

  private static ResourceClaim claim(String name) {
    return new ResourceClaimBuilder().withNewMetadata().withName(name).withNamespace("default")
        .endMetadata()
        .withNewSpec().withNewDevices().addNewRequest().withName("gpu")
        .withNewExactly().withDeviceClassName("gpu").endExactly().endRequest().endDevices()
        .endSpec()
        .build();
  }
}
