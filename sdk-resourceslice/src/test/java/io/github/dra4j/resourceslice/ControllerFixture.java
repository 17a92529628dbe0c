package io.github.dra4j.resourceslice;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.IntStream;

/**
 * A running in-memory API server with a Node, plus helpers to start controllers against it and
 * read what they published. Errors reported to the controllers' handlers are collected as
 * {@code "<message>: <error message>"}.
 */
final class ControllerFixture implements AutoCloseable {

  static final String DRIVER = "gpu.example.com";
  static final String NODE = "node-1";
  static final Duration TIMEOUT = Duration.ofSeconds(30);

  final InMemoryApiServer server;
  final KubernetesClient client;
  final String nodeUid;
  final List<String> errors = Collections.synchronizedList(new ArrayList<>());
  final List<Throwable> errorObjects = Collections.synchronizedList(new ArrayList<>());
  private final List<ResourceSliceController> controllers = new ArrayList<>();

  ControllerFixture() {
    this(InMemoryApiServer.builder().build());
  }

  ControllerFixture(InMemoryApiServer notStarted) {
    server = notStarted.start();
    client = server.client();
    nodeUid = client.nodes().resource(new NodeBuilder().withNewMetadata().withName(NODE)
        .endMetadata().build()).create().getMetadata().getUid();
  }

  ControllerOptions.Builder options(DriverResources resources) {
    return ControllerOptions.builder()
        .driverName(DRIVER)
        .client(client)
        .owner(Owner.node(NODE, null))
        .resources(resources)
        .syncDelay(Duration.ofMillis(100))
        .recreateDelay(Duration.ofMillis(50))
        .mutationCacheTtl(Duration.ofSeconds(5))
        .errorHandler((error, message) -> {
          errors.add(message + ": " + error.getMessage());
          errorObjects.add(error);
        });
  }

  ResourceSliceController start(DriverResources resources) {
    return start(resources, b -> {});
  }

  ResourceSliceController start(DriverResources resources,
      Consumer<ControllerOptions.Builder> tweak) {
    ControllerOptions.Builder builder = options(resources);
    tweak.accept(builder);
    ResourceSliceController controller = ResourceSliceController.start(builder.build());
    controllers.add(controller);
    return controller;
  }

  List<ResourceSlice> slices() {
    List<ResourceSlice> items = new ArrayList<>(
        client.dynamicResourceAllocation().v1().resourcesSlices().list().getItems());
    items.sort(Comparator.comparing(s -> s.getMetadata().getName()));
    return items;
  }

  List<ResourceSlice> slicesOf(String pool) {
    return slices().stream().filter(s -> pool.equals(s.getSpec().getPool().getName())).toList();
  }

  /** Waits until the published pool has exactly the expected devices per slice, in order. */
  void awaitPool(String pool, List<List<String>> devicesPerSlice) {
    await().atMost(TIMEOUT).until(() -> deviceNames(pool).equals(devicesPerSlice));
  }

  List<List<String>> deviceNames(String pool) {
    return slicesOf(pool).stream()
        .map(s -> s.getSpec().getDevices().stream().map(Device::getName).toList())
        .toList();
  }

  /** Waits until the stats reach the expected values, then checks that they stay there. */
  void awaitStats(ResourceSliceController controller, ControllerStats expected) {
    await().atMost(TIMEOUT).until(() -> controller.stats().equals(expected));
    await().during(Duration.ofMillis(600)).atMost(TIMEOUT)
        .until(() -> controller.stats().equals(expected));
  }

  long writes() {
    return server.countWrites("resourceslices");
  }

  static Device device(String name) {
    return new DeviceBuilder().withName(name).build();
  }

  static List<Device> devices(String prefix, int count) {
    return IntStream.range(0, count).mapToObj(i -> device(prefix + i)).toList();
  }

  static Slice slice(String... deviceNames) {
    return Slice.of(java.util.Arrays.stream(deviceNames).map(ControllerFixture::device).toList());
  }

  static DriverResources pool(String name, Slice... slices) {
    return DriverResources.of(name, Pool.builder().slices(List.of(slices)).build());
  }

  @Override
  public void close() {
    controllers.forEach(ResourceSliceController::close);
    server.close();
  }
}
