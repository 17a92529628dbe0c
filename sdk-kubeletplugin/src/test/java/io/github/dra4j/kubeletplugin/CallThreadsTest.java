package io.github.dra4j.kubeletplugin;

import static io.github.dra4j.kubeletplugin.testsupport.TestPlugins.DRIVER;
import static io.github.dra4j.testing.kubelet.KubeletClient.claim;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.google.common.util.concurrent.ListenableFuture;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.core.metrics.MetricNames;
import io.github.dra4j.kubelet.wire.dra.v1.DRAPluginGrpc;
import io.github.dra4j.kubelet.wire.dra.v1.NodeUnprepareResourcesRequest;
import io.github.dra4j.kubelet.wire.dra.v1.NodeUnprepareResourcesResponse;
import io.github.dra4j.kubeletplugin.internal.grpc.HandlerPool;
import io.github.dra4j.kubeletplugin.testsupport.ClaimFixtures;
import io.github.dra4j.kubeletplugin.testsupport.PluginTestBase;
import io.github.dra4j.kubeletplugin.testsupport.RecordingDriver;
import io.github.dra4j.kubeletplugin.testsupport.TestPlugins;
import io.github.dra4j.resourceclaim.ClaimReference;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Which threads run a call: the driver and a user's interceptor on the handler threads, never on
 * the event loops that serve every socket, however long the driver takes; one call more than the
 * handler threads is refused with RESOURCE_EXHAUSTED, saying why.
 */
class CallThreadsTest extends PluginTestBase {

  /** A driver that records its threads and can be held inside a prepare. */
  private static final class HoldingDriver extends RecordingDriver {
    final List<String> threads = new CopyOnWriteArrayList<>();
    final CountDownLatch entered = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    volatile boolean hold;

    HoldingDriver() {
      super(DRIVER);
    }

    @Override
    public Map<String, PrepareResult> prepareResourceClaims(List<ResourceClaim> claims,
        CallContext context) throws Exception {
      threads.add(Thread.currentThread().getName());
      if (hold && claims.get(0).getMetadata().getName().equals("slow")) {
        entered.countDown();
        release.await(20, TimeUnit.SECONDS);
      }
      return super.prepareResourceClaims(claims, context);
    }
  }

  @Test
  void aDriverHeldInPrepareBlocksNeitherOtherCallsNorTheRegistrationSocket() throws Exception {
    HoldingDriver driver = new HoldingDriver();
    driver.hold = true;
    String slow = ClaimFixtures.store(client, ClaimFixtures.allocated("default", "slow", DRIVER))
        .getMetadata().getUid();
    String quick = ClaimFixtures.store(client,
        ClaimFixtures.allocated("default", "quick", DRIVER)).getMetadata().getUid();
    try (KubeletPlugin plugin = TestPlugins.builder(driver, client, root)
        .serialization(s -> s.withEnabled(false))
        .start()) {
      CompletableFuture<?> held = CompletableFuture.runAsync(
          () -> kubelet.prepare(plugin.draSocket(), claim("default", "slow", slow)));
      assertThat(driver.entered.await(10, TimeUnit.SECONDS)).isTrue();

      // Same connection, same event loop: answered while the first call is still held.
      assertThat(kubelet.prepare(plugin.draSocket(), claim("default", "quick", quick))
          .getClaimsMap().get(quick).getError()).isEmpty();
      assertThat(kubelet.getInfo(plugin.registrationSocket()).getName()).isEqualTo(DRIVER);
      assertThat(held).isNotDone();

      driver.release.countDown();
      held.get(10, TimeUnit.SECONDS);
    }
    assertThat(driver.threads).hasSize(2).allMatch(name -> name.startsWith("dra4j-grpc-"));
  }

  @Test
  void oneCallMoreThanTheHandlerThreadsIsRefusedSayingSoAndCountedOnce() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch held = new CountDownLatch(HandlerPool.MAX);
    RecordingDriver driver = new RecordingDriver(DRIVER) {
      @Override
      public Map<String, UnprepareResult> unprepareResourceClaims(List<ClaimReference> claims,
          CallContext context) {
        held.countDown();
        try {
          release.await(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        return super.unprepareResourceClaims(claims, context);
      }
    };
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    try (KubeletPlugin plugin = TestPlugins.builder(driver, client, root)
        .serialization(s -> s.withEnabled(false))
        .meterRegistry(meters).start()) {
      DRAPluginGrpc.DRAPluginFutureStub stub = DRAPluginGrpc
          .newFutureStub(kubelet.channel(plugin.draSocket()))
          .withDeadlineAfter(30, TimeUnit.SECONDS);
      List<ListenableFuture<NodeUnprepareResourcesResponse>> calls = new ArrayList<>();
      for (int i = 0; i < HandlerPool.MAX; i++) {
        calls.add(stub.nodeUnprepareResources(NodeUnprepareResourcesRequest.newBuilder()
            .addClaims(claim("default", "c" + i, "uid-" + i)).build()));
      }
      assertThat(held.await(20, TimeUnit.SECONDS)).isTrue();

      assertThatThrownBy(() -> kubelet.unprepare(plugin.draSocket(),
          claim("default", "one-more", "uid-more")))
          .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
            assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
            assertThat(e.getStatus().getDescription())
                .isEqualTo("64 calls are in progress, the most this plugin runs at once");
          });

      release.countDown();
      for (ListenableFuture<NodeUnprepareResourcesResponse> call : calls) {
        assertThat(call.get(20, TimeUnit.SECONDS).getClaimsCount()).isEqualTo(1);
      }
      await().atMost(Duration.ofSeconds(5))
          .until(() -> meters.get(MetricNames.GRPC_IN_FLIGHT).gauge().value() == 0);
      assertThat(meters.get(MetricNames.GRPC_OPERATIONS)
          .tag(MetricNames.GRPC_STATUS_CODE, "ResourceExhausted").timer().count()).isEqualTo(1);
    }
  }

  @Test
  void aUsersInterceptorStartsEachCallOnAHandlerThread() {
    List<String> threads = new CopyOnWriteArrayList<>();
    ServerInterceptor recording = new ServerInterceptor() {
      @Override
      public <Q, R> io.grpc.ServerCall.Listener<Q> interceptCall(io.grpc.ServerCall<Q, R> call,
          io.grpc.Metadata headers, io.grpc.ServerCallHandler<Q, R> next) {
        threads.add(Thread.currentThread().getName());
        return next.startCall(call, headers);
      }
    };
    HoldingDriver driver = new HoldingDriver();
    String uid = ClaimFixtures.store(client, ClaimFixtures.allocated("default", "c", DRIVER))
        .getMetadata().getUid();
    try (KubeletPlugin plugin = TestPlugins.builder(driver, client, root)
        .interceptor(recording).start()) {
      kubelet.getInfo(plugin.registrationSocket());
      assertThat(kubelet.prepare(plugin.draSocket(), claim("default", "c", uid))
          .getClaimsMap().get(uid).getError()).isEmpty();
    }
    assertThat(threads).hasSizeGreaterThanOrEqualTo(2)
        .allMatch(name -> name.startsWith("dra4j-grpc-"));
    assertThat(driver.threads).singleElement().asString().startsWith("dra4j-grpc-");
  }

  @Test
  void anErrorThrownByTheDriverFailsTheCallWithUnknownAndTheNextCallIsServed() {
    RecordingDriver driver = new RecordingDriver(DRIVER) {
      @Override
      public Map<String, PrepareResult> prepareResourceClaims(List<ResourceClaim> claims,
          CallContext context) throws Exception {
        if (claims.get(0).getMetadata().getName().equals("bad")) {
          throw new AssertionError("driver bug");
        }
        return super.prepareResourceClaims(claims, context);
      }
    };
    String bad = ClaimFixtures.store(client, ClaimFixtures.allocated("default", "bad", DRIVER))
        .getMetadata().getUid();
    String good = ClaimFixtures.store(client, ClaimFixtures.allocated("default", "good", DRIVER))
        .getMetadata().getUid();
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    try (KubeletPlugin plugin = TestPlugins.builder(driver, client, root).meterRegistry(meters)
        .start()) {
      assertThatThrownBy(() -> kubelet.prepare(plugin.draSocket(), claim("default", "bad", bad)))
          .hasMessageStartingWith("UNKNOWN");
      assertThat(kubelet.prepare(plugin.draSocket(), claim("default", "good", good))
          .getClaimsMap().get(good).getError()).isEmpty();
      // Closed beneath the call observer, and still timed and counted out of the gauge.
      await().atMost(Duration.ofSeconds(5))
          .until(() -> meters.get(MetricNames.GRPC_IN_FLIGHT).gauge().value() == 0);
      assertThat(meters.get(MetricNames.GRPC_OPERATIONS)
          .tag(MetricNames.GRPC_STATUS_CODE, "Unknown").timer().count()).isEqualTo(1);
    }
  }
}
