package io.github.dra4j.kubeletplugin;

import static io.github.dra4j.kubeletplugin.testsupport.HangFixture.busyHandlerThreads;
import static io.github.dra4j.kubeletplugin.testsupport.HangFixture.storedClaim;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.common.util.concurrent.ListenableFuture;
import io.github.dra4j.kubelet.wire.dra.v1.Claim;
import io.github.dra4j.kubelet.wire.dra.v1.DRAPluginGrpc;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourcesRequest;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourcesResponse;
import io.github.dra4j.kubelet.wire.dra.v1.NodeUnprepareResourcesRequest;
import io.github.dra4j.kubeletplugin.testsupport.HangFixture;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import io.github.dra4j.testing.kubelet.KubeletClient;
import io.grpc.Context;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An API server that accepts connections and never answers, against a plugin whose API client is
 * made from the DaemonSet's environment (the Kubernetes client's default timeouts and retries),
 * over real sockets with the kubelet's deadlines: calls that need the API server end with their
 * deadline or cancellation and never take every handler thread; calls that need none (an
 * unprepare, the prepare of a claim already prepared) keep answering; a plugin with too many
 * calls waiting says so; all recovers when the API server answers again.
 */
class ApiServerHangTest {

  /** More new claims than the plugin has handler threads. */
  private static final int NEW_CLAIMS = 70;

  @TempDir
  Path root;
  private InMemoryApiServer server;
  private final KubeletClient kubelet = KubeletClient.create();
  private KubeletPlugin plugin;

  @BeforeEach
  void start() throws Exception {
    server = InMemoryApiServer.builder().build().start();
    plugin = KubeletPlugin.builder(new HangFixture.RememberingDriver())
        .driverName("gpu.example.com").shutdown(s -> s.withCloseOnShutdown(false))
        .fromEnvironment(HangFixture.environment(root, server)).start();
  }

  @AfterEach
  void stop() {
    server.clearHangs();
    plugin.close();
    kubelet.close();
    server.close();
  }

  /** The kubelet's one connection to the plugin, over which it sends the calls of all its pods. */
  private ManagedChannel kubeletConnection;

  private DRAPluginGrpc.DRAPluginFutureStub kubeletStub(Duration deadline) {
    if (kubeletConnection == null) {
      kubeletConnection = kubelet.channel(plugin.draSocket());
    }
    return DRAPluginGrpc.newFutureStub(kubeletConnection)
        .withDeadlineAfter(deadline.toNanos(), TimeUnit.NANOSECONDS);
  }

  private ListenableFuture<NodePrepareResourcesResponse> prepare(Claim claim, Duration deadline) {
    return kubeletStub(deadline).nodePrepareResources(
        NodePrepareResourcesRequest.newBuilder().addClaims(claim).build());
  }

  private static String error(NodePrepareResourcesResponse response, Claim claim) {
    return response.getClaimsOrThrow(claim.getUid()).getError();
  }

  private static Status statusOf(ListenableFuture<?> call) throws InterruptedException {
    try {
      call.get();
      return Status.OK;
    } catch (ExecutionException e) {
      return Status.fromThrowable(e.getCause());
    }
  }

  @Test
  void callsWithoutTheApiServerKeepAnsweringAndTheRestAreRefusedTruthfullyUntilItRecovers()
      throws Exception {
    Claim running = storedClaim(server, "running");
    Claim stopping = storedClaim(server, "stopping");
    assertThat(error(kubelet.prepare(plugin.draSocket(), running), running)).isEmpty();
    assertThat(error(kubelet.prepare(plugin.draSocket(), stopping), stopping)).isEmpty();
    List<Claim> fresh = new ArrayList<>();
    for (int i = 0; i < NEW_CLAIMS; i++) {
      fresh.add(storedClaim(server, "new-" + i));
    }
    server.hangAll();

    List<ListenableFuture<NodePrepareResourcesResponse>> pending = new ArrayList<>();
    for (Claim claim : fresh) {
      pending.add(prepare(claim, KubeletClient.NODE_CALL_TIMEOUT));
    }
    // Every call is either waiting for the API server or answered.
    await().atMost(Duration.ofSeconds(20)).until(() -> server.hungRequests()
        + pending.stream().filter(ListenableFuture::isDone).count() == NEW_CLAIMS);
    long busy = busyHandlerThreads();

    // Over the same connection as the calls waiting for the API server, as the kubelet sends them.
    long start = System.nanoTime();
    assertThat(kubeletStub(KubeletClient.NODE_CALL_TIMEOUT).nodeUnprepareResources(
        NodeUnprepareResourcesRequest.newBuilder().addClaims(stopping).build()).get()
        .getClaimsOrThrow(stopping.getUid()).getError()).isEmpty();
    assertThat(error(prepare(running, KubeletClient.NODE_CALL_TIMEOUT).get(), running)).isEmpty();
    assertThat(kubelet.getInfo(plugin.registrationSocket()).getName())
        .isEqualTo("gpu.example.com");
    Duration answered = Duration.ofNanos(System.nanoTime() - start);

    List<Status> refusals = new ArrayList<>();
    List<ListenableFuture<NodePrepareResourcesResponse>> waitingCalls = new ArrayList<>();
    for (ListenableFuture<NodePrepareResourcesResponse> call : pending) {
      if (call.isDone()) {
        refusals.add(statusOf(call));
      } else {
        waitingCalls.add(call);
      }
    }
    String waiting = "32 calls are waiting for the API server at " + server.url()
        + ", the most this plugin lets wait at once";
    assertThat(refusals).as("calls beyond those waiting for the API server").hasSize(
        NEW_CLAIMS - 32).allSatisfy(status -> {
          assertThat(status.getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
          assertThat(status.getDescription()).isEqualTo(waiting);
        });
    assertThat(server.hungRequests()).isEqualTo(32);
    assertThat(busy).as("handler threads held by the API server").isLessThanOrEqualTo(32);
    assertThat(answered).as("unprepare, re-prepare and GetInfo").isLessThan(
        Duration.ofSeconds(3));

    // The API server answers again: the waiting calls complete, the refused ones succeed.
    server.clearHangs();
    for (ListenableFuture<NodePrepareResourcesResponse> call : waitingCalls) {
      NodePrepareResourcesResponse response = call.get(30, TimeUnit.SECONDS);
      assertThat(response.getClaimsMap().values()).allMatch(c -> c.getError().isEmpty());
    }
    for (int i = 0; i < NEW_CLAIMS; i++) {
      assertThat(error(kubelet.prepare(plugin.draSocket(), fresh.get(i)), fresh.get(i)))
          .isEmpty();
    }
    await().atMost(Duration.ofSeconds(10)).until(() -> busyHandlerThreads() == 0);
  }

  @Test
  void aPrepareOfANewClaimFailsAtItsDeadlineWithTheUrlAndFreesItsThread() throws Exception {
    Claim fresh = storedClaim(server, "new");
    server.hangAll();
    Duration deadline = Duration.ofSeconds(2);

    long start = System.nanoTime();
    // An answer, not the kubelet's own DEADLINE_EXCEEDED: the plugin answers just before it.
    NodePrepareResourcesResponse response = prepare(fresh, deadline).get();
    Duration took = Duration.ofNanos(System.nanoTime() - start);

    assertThat(took).isGreaterThan(deadline.multipliedBy(8).dividedBy(10))
        .isLessThan(deadline.plusMillis(500)); // the deadline counts from the stub's making
    assertThat(error(response, fresh))
        .startsWith("get resource claims: retrieve claim default/new: GET " + server.url()
            + "apis/resource.k8s.io/v1/namespaces/default/resourceclaims/new: no answer from the"
            + " API server within 1.")
        .endsWith(" s (the time the kubelet gave the call)");
    await().atMost(Duration.ofMillis(500)).until(() -> busyHandlerThreads() == 0);
  }

  @Test
  void aCancelledCallStopsWaitingForTheApiServerAtOnce() throws Exception {
    List<Claim> fresh = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      fresh.add(storedClaim(server, "new-" + i));
    }
    server.hangAll();
    Context.CancellableContext kubeletSide = Context.current().withCancellation();
    List<ListenableFuture<NodePrepareResourcesResponse>> pending = new ArrayList<>();
    kubeletSide.run(
        () -> fresh.forEach(claim -> pending.add(prepare(claim, KubeletClient.NODE_CALL_TIMEOUT))));
    await().atMost(Duration.ofSeconds(10)).until(() -> server.hungRequests() == fresh.size());
    assertThat(busyHandlerThreads()).isEqualTo(fresh.size());

    kubeletSide.cancel(null);

    await().atMost(Duration.ofSeconds(1)).until(() -> busyHandlerThreads() == 0);
    for (ListenableFuture<NodePrepareResourcesResponse> call : pending) {
      assertThat(statusOf(call).getCode()).isEqualTo(Status.Code.CANCELLED);
    }
    // An unprepare is still answered, and a prepare after the API server recovers succeeds.
    assertThat(kubelet.unprepare(plugin.draSocket(), fresh.get(0))
        .getClaimsOrThrow(fresh.get(0).getUid()).getError()).isEmpty();
    server.clearHangs();
    assertThat(error(kubelet.prepare(plugin.draSocket(), fresh.get(0)), fresh.get(0))).isEmpty();
  }

  @Test
  void anUnprepareOfManyClaimsNeedsNoApiServer() {
    List<Claim> claims = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      Claim claim = storedClaim(server, "c-" + i);
      assertThat(error(kubelet.prepare(plugin.draSocket(), claim), claim)).isEmpty();
      claims.add(claim);
    }
    server.hangAll();

    assertThat(kubelet.draV1(plugin.draSocket()).withDeadlineAfter(2, TimeUnit.SECONDS)
        .nodeUnprepareResources(NodeUnprepareResourcesRequest.newBuilder().addAllClaims(claims)
            .build())
        .getClaimsMap().values()).hasSize(4).allMatch(c -> c.getError().isEmpty());
    assertThat(server.hungRequests()).as("the status clear is off; nothing was asked").isZero();
  }
}
