package io.github.dra4j.kubeletplugin;

import static io.github.dra4j.kubeletplugin.testsupport.TestPlugins.DRIVER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.dra4j.core.metrics.MetricNames;
import io.github.dra4j.kubeletplugin.internal.publish.SlicePublisher;
import io.github.dra4j.kubeletplugin.testsupport.RecordingDriver;
import io.github.dra4j.kubeletplugin.testsupport.TestPlugins;
import io.github.dra4j.resourceslice.DriverResources;
import io.github.dra4j.resourceslice.Pool;
import io.github.dra4j.testing.apiserver.ApiVerb;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import io.grpc.ManagedChannel;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.NettyChannelBuilder;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Failures of publishing do not look like success: a pool the API server would refuse (one bad
 * device name) or writes the API server refuses leave the readiness service NOT_SERVING while
 * liveness stays SERVING, are reported once per change of state (not at every retry) and posted
 * as a Warning Event about the Node; the recovery is one INFO line and a Normal Event, readiness
 * turns SERVING, and the driver's "published" action runs only then.
 */
class PublishingStateTest {

  private static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir
  Path root;
  private InMemoryApiServer server;
  private KubernetesClient client;
  private ManagedChannel channel;
  private final ListAppender<ILoggingEvent> log = new ListAppender<>();
  private final Logger sdk = (Logger) org.slf4j.LoggerFactory.getLogger("io.github.dra4j");

  @BeforeEach
  void start() {
    server = InMemoryApiServer.builder().build().start();
    client = server.client();
    client.nodes().resource(new NodeBuilder().withNewMetadata().withName("node-1").endMetadata()
        .build()).create();
    log.start();
    sdk.addAppender(log);
  }

  @AfterEach
  void stop() {
    sdk.detachAppender(log);
    if (channel != null) {
      channel.shutdownNow();
    }
    server.close();
  }

  private static DriverResources pool(String... names) {
    List<Device> devices = java.util.Arrays.stream(names)
        .map(n -> new DeviceBuilder().withName(n).build()).toList();
    return DriverResources.of("node-1", Pool.builder().devices(devices).build());
  }

  private KubeletPlugin start(RecordingDriver driver) {
    KubeletPlugin plugin = TestPlugins.builder(driver, client, root)
        .slices(s -> s.withSyncDelay(Duration.ofMillis(100)))
        .livenessProbe(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).start();
    channel = NettyChannelBuilder.forAddress("127.0.0.1", plugin.livenessPort().getAsInt())
        .usePlaintext().build();
    return plugin;
  }

  private ServingStatus check(String service) {
    return HealthGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS)
        .check(HealthCheckRequest.newBuilder().setService(service).build()).getStatus();
  }

  private List<Event> nodeEvents(String reason) {
    return client.v1().events().inNamespace("default").withField("involvedObject.kind", "Node")
        .withField("involvedObject.name", "node-1").withField("reason", reason).list()
        .getItems();
  }

  private long lines(Level level, String text) {
    return log.list.stream().filter(e -> e.getLevel() == level)
        .filter(e -> e.getFormattedMessage().contains(text)).count();
  }

  @Test
  void aRefusedPoolIsNotReadyReportedOnceAndPostedUntilItIsFixed() {
    RecordingDriver driver = new RecordingDriver(DRIVER);
    AtomicInteger served = new AtomicInteger();
    try (KubeletPlugin plugin = start(driver)) {
      assertThat(check(KubeletPlugin.READINESS_SERVICE)).as("nothing published yet")
          .isEqualTo(ServingStatus.NOT_SERVING);

      plugin.publishResources(pool("gpu-0", "GPU_1"));
      plugin.whenPublished(served::incrementAndGet);

      await().atMost(WAIT).until(() -> !nodeEvents("ResourceSlicePublishFailed").isEmpty());
      Event failed = nodeEvents("ResourceSlicePublishFailed").get(0);
      assertThat(failed.getType()).isEqualTo("Warning");
      assertThat(failed.getMessage()).startsWith("ResourceSlice pool \"node-1\" of driver "
          + DRIVER + " is refused (the API server holds 0 of its devices; publish it again once"
          + " fixed; readiness is NOT_SERVING): ").contains("spec.devices[1].name", "GPU_1");
      assertThat(failed.getSource().getComponent()).isEqualTo(DRIVER);
      assertThat(check(KubeletPlugin.READINESS_SERVICE)).isEqualTo(ServingStatus.NOT_SERVING);
      assertThat(check(KubeletPlugin.LIVENESS_SERVICE)).isEqualTo(ServingStatus.SERVING);
      assertThat(plugin.isPublished()).isFalse();
      assertThat(driver.errors()).singleElement().satisfies(e -> {
        assertThat(RecoverableException.isRecoverable(e.getKey())).isTrue();
        assertThat(e.getValue()).contains("is refused");
      });
      assertThat(served).hasValue(0);
      assertThat(plugin.meterRegistry().get(MetricNames.SLICE_PUBLISH_FAILING)
          .tag(MetricNames.POOL, "node-1").gauge().value()).isEqualTo(1);

      plugin.publishResources(pool("gpu-0", "gpu-1"));

      await().atMost(WAIT)
          .until(() -> check(KubeletPlugin.READINESS_SERVICE) == ServingStatus.SERVING);
      assertThat(served).hasValue(1);
      assertThat(lines(Level.INFO, "ResourceSlice pool \"node-1\" of driver " + DRIVER
          + " is published again: 2 devices in 1 ResourceSlice")).isEqualTo(1);
      assertThat(driver.errors()).hasSize(1);
      assertThat(plugin.meterRegistry().get(MetricNames.SLICE_PUBLISHED_DEVICES)
          .tag(MetricNames.POOL, "node-1").gauge().value()).isEqualTo(2);
      // At most one Event per interval: the recovery waits for the end of the failure's.
      await().atMost(WAIT.plus(SlicePublisher.EVENT_INTERVAL))
          .until(() -> !nodeEvents("ResourceSlicePublished").isEmpty());
      assertThat(nodeEvents("ResourceSlicePublished").get(0).getType()).isEqualTo("Normal");
    }
  }

  @Test
  void writesTheServerKeepsRefusingAreReportedOnceNotAtEveryRetry() {
    RecordingDriver driver = new RecordingDriver(DRIVER);
    server.failNext(ApiVerb.CREATE, "resourceslices", 500, 6);
    try (KubeletPlugin plugin = start(driver)) {
      plugin.publishResources(pool("gpu-0"));

      await().atMost(WAIT).until(() -> server.pendingFaults() == 0);
      await().atMost(WAIT).until(plugin::isPublished);

      assertThat(driver.errors()).as("six failed creates, one report").singleElement()
          .satisfies(e -> assertThat(e.getValue()).contains("is not published", "retried"));
      assertThat(check(KubeletPlugin.READINESS_SERVICE)).isEqualTo(ServingStatus.SERVING);
      assertThat(lines(Level.INFO, "is published again: 1 device in 1 ResourceSlice"))
          .isEqualTo(1);
    }
  }

  @Test
  void aFirstSuccessfulPublishIsLoggedOnceAndMakesThePluginReady() {
    try (KubeletPlugin plugin = start(new RecordingDriver(DRIVER))) {
      plugin.publishResources(pool("gpu-0", "gpu-1", "gpu-2"));

      await().atMost(WAIT).until(plugin::isPublished);
      assertThat(check(KubeletPlugin.READINESS_SERVICE)).isEqualTo(ServingStatus.SERVING);
      assertThat(lines(Level.INFO, "ResourceSlice pool \"node-1\" of driver " + DRIVER
          + " published: 3 devices in 1 ResourceSlice")).isEqualTo(1);
      assertThat(nodeEvents("ResourceSlicePublishFailed")).isEmpty();
      assertThat(plugin.nodeName()).isEqualTo("node-1");
    }
  }
}
