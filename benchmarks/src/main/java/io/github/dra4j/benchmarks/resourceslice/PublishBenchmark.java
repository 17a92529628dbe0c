package io.github.dra4j.benchmarks.resourceslice;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacityBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.dra4j.resourceslice.ControllerOptions;
import io.github.dra4j.resourceslice.ControllerStats;
import io.github.dra4j.resourceslice.DriverResources;
import io.github.dra4j.resourceslice.Owner;
import io.github.dra4j.resourceslice.Pool;
import io.github.dra4j.resourceslice.ResourceSliceController;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * Publishes 10,000 devices (one pool: 5,000 plain and 5,000 tainted devices, each with four
 * attributes and a memory capacity) to the in-memory API server and prints: time until the
 * controller converged and its writes; writes of a restarted controller with the same devices;
 * writes after one device changed. Targets: converged under 10 s with writes equal to the number of
 * slices, 0 writes on an unchanged restart, 1 write on a one-device change.
 *
 * <p>Run: {@code ./mvnw -B -q -Pbenchmarks -pl benchmarks exec:java
 * -Dexec.mainClass=io.github.dra4j.benchmarks.resourceslice.PublishBenchmark}.
 */
public final class PublishBenchmark {

  private static final String DRIVER = "gpu.example.com";
  private static final String NODE = "bench-node";
  private static final int PLAIN = 5_000;
  private static final int TAINTED = 5_000;
  private static final Duration QUIET = Duration.ofSeconds(2);

  private PublishBenchmark() {}

  /**
   * Runs the benchmark.
   *
   * @param args ignored
   * @throws InterruptedException if interrupted while waiting
   */
  public static void main(String[] args) throws InterruptedException {
    try (InMemoryApiServer server = InMemoryApiServer.builder().build().start()) {
      KubernetesClient client = server.client();
      client.nodes().resource(new NodeBuilder().withNewMetadata().withName(NODE).endMetadata()
          .build()).create();
      List<Device> devices = devices();
      DriverResources resources = resources(devices);
      int sliceCount = resources.pools().get("gpus").slices().size();
      AtomicInteger errors = new AtomicInteger();
      System.out.printf(Locale.ROOT, "devices: %d (%d plain, %d tainted) in %d slices%n",
          devices.size(), PLAIN, TAINTED, sliceCount);

      long started = System.nanoTime();
      ResourceSliceController first = options(client, resources, errors).start();
      waitFor(() -> first.stats().creates() == sliceCount);
      double seconds = (System.nanoTime() - started) / 1e9;
      ControllerStats initial = first.stats();
      int publishedDevices = published(client);
      System.out.printf(Locale.ROOT, "first publish: converged in %.2f s, %d devices published,"
          + " writes %d (creates %d, updates %d, deletes %d; server counted %d) -> target"
          + " < 10 s and %d writes: %s%n", seconds, publishedDevices, initial.writes(),
          initial.creates(), initial.updates(), initial.deletes(),
          server.countWrites("resourceslices"), sliceCount,
          seconds < 10 && initial.writes() == sliceCount && publishedDevices == devices.size()
              ? "MET" : "MISSED");
      first.close();

      long serverWritesBefore = server.countWrites("resourceslices");
      started = System.nanoTime();
      ResourceSliceController second = options(client, resources, errors).start();
      double startSeconds = (System.nanoTime() - started) / 1e9;
      Thread.sleep(QUIET.toMillis());
      long restartWrites = server.countWrites("resourceslices") - serverWritesBefore;
      System.out.printf(Locale.ROOT, "restart with the same devices: started in %.2f s, writes"
          + " after %d s: %d (controller stats %s) -> target 0: %s%n", startSeconds,
          QUIET.toSeconds(), restartWrites, second.stats(), restartWrites == 0 ? "MET" : "MISSED");

      List<Device> changed = new ArrayList<>(devices);
      changed.set(7_777, new DeviceBuilder(devices.get(7_777)).addToAttributes("health",
          new DeviceAttributeBuilder().withString("degraded").build()).build());
      serverWritesBefore = server.countWrites("resourceslices");
      started = System.nanoTime();
      second.update(resources(changed));
      waitFor(() -> client.dynamicResourceAllocation().v1().resourcesSlices().list().getItems()
          .stream().flatMap(s -> s.getSpec().getDevices().stream())
          .anyMatch(
              d -> d.getName().equals("gpu-7777") && d.getAttributes().containsKey("health")));
      double changeSeconds = (System.nanoTime() - started) / 1e9;
      Thread.sleep(QUIET.toMillis());
      long changeWrites = server.countWrites("resourceslices") - serverWritesBefore;
      System.out.printf(Locale.ROOT, "one device changed: published in %.3f s, writes %d"
          + " (controller stats %s) -> target 1: %s%n", changeSeconds, changeWrites,
          second.stats(), changeWrites == 1 ? "MET" : "MISSED");
      second.close();
      System.out.printf(Locale.ROOT, "errors reported to the error handler: %d%n", errors.get());
    }
  }

  private static ControllerOptions.Builder options(KubernetesClient client,
      DriverResources resources, AtomicInteger errors) {
    return ResourceSliceController.builder()
        .driverName(DRIVER)
        .client(client)
        .owner(Owner.node(NODE, null))
        .resources(resources)
        .errorHandler((error, message) -> {
          errors.incrementAndGet();
          System.err.println(message + ": " + error.getMessage());
        });
  }

  private static DriverResources resources(List<Device> devices) {
    return DriverResources.of("gpus", Pool.builder().devices(devices).build());
  }

  private static List<Device> devices() {
    List<Device> devices = new ArrayList<>(PLAIN + TAINTED);
    for (int i = 0; i < PLAIN + TAINTED; i++) {
      DeviceBuilder device = new DeviceBuilder().withName("gpu-" + i)
          .addToAttributes("model", new DeviceAttributeBuilder().withString("a100").build())
          .addToAttributes("uuid", new DeviceAttributeBuilder()
              .withString(String.format(Locale.ROOT, "GPU-%08x-0000-0000-0000-%012x", i, i))
              .build())
          .addToAttributes("index", new DeviceAttributeBuilder().withInt((long) i).build())
          .addToAttributes("driverVersion", new DeviceAttributeBuilder().withVersion("550.54.15")
              .build())
          .addToCapacity("memory", new DeviceCapacityBuilder().withValue(new Quantity("80Gi"))
              .build());
      if (i >= PLAIN) {
        device.addNewTaint().withKey(DRIVER + "/maintenance").withValue("scheduled")
            .withEffect("NoSchedule").withTimeAdded("2026-01-01T00:00:00Z").endTaint();
      }
      devices.add(device.build());
    }
    return devices;
  }

  private static int published(KubernetesClient client) {
    return client.dynamicResourceAllocation().v1().resourcesSlices().list().getItems().stream()
        .map(ResourceSlice::getSpec).mapToInt(s -> s.getDevices().size()).sum();
  }

  private static void waitFor(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("benchmark did not converge within 60 s");
      }
      Thread.sleep(10);
    }
  }
}
