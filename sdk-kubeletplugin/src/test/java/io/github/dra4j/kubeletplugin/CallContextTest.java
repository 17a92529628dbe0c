package io.github.dra4j.kubeletplugin;

import static io.github.dra4j.kubeletplugin.testsupport.TestPlugins.DRIVER;
import static io.github.dra4j.testing.kubelet.KubeletClient.claim;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourcesRequest;
import io.github.dra4j.kubeletplugin.testsupport.ClaimFixtures;
import io.github.dra4j.kubeletplugin.testsupport.PluginTestBase;
import io.github.dra4j.kubeletplugin.testsupport.RecordingDriver;
import io.github.dra4j.kubeletplugin.testsupport.TestPlugins;
import io.github.dra4j.resourceclaim.ClaimReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

/** What the driver learns about a call and about the plugin, through real kubelet calls. */
class CallContextTest extends PluginTestBase {

  /** Keeps the context of every call. */
  private static final class ContextRecorder extends RecordingDriver {
    final List<CallContext> contexts = new CopyOnWriteArrayList<>();
    final List<Boolean> cancelledDuringCall = new CopyOnWriteArrayList<>();

    ContextRecorder() {
      super(DRIVER);
    }

    @Override
    public Map<String, PrepareResult> prepareResourceClaims(List<ResourceClaim> claims,
        CallContext context) throws Exception {
      contexts.add(context);
      cancelledDuringCall.add(context.isCancelled());
      return super.prepareResourceClaims(claims, context);
    }

    @Override
    public Map<String, UnprepareResult> unprepareResourceClaims(List<ClaimReference> claims,
        CallContext context) {
      contexts.add(context);
      return super.unprepareResourceClaims(claims, context);
    }
  }

  @Test
  void theDriverSeesTheKubeletsDeadlineTheNodeTheDirectoryAndTheRequestsMdc() {
    ContextRecorder driver = new ContextRecorder();
    ResourceClaim stored = ClaimFixtures.store(client,
        ClaimFixtures.allocated("default", "c", DRIVER));
    String uid = stored.getMetadata().getUid();
    try (KubeletPlugin plugin = TestPlugins.builder(driver, client, root).start()) {
      kubelet.prepare(plugin.draSocket(), claim("default", "c", uid));
      kubelet.unprepare(plugin.draSocket(), claim("default", "c", uid));
    }

    assertThat(driver.contexts).hasSize(2);
    CallContext prepare = driver.contexts.get(0);
    assertThat(prepare.method()).isEqualTo("NodePrepareResources");
    assertThat(driver.contexts.get(1).method()).isEqualTo("NodeUnprepareResources");
    assertThat(prepare.nodeName()).isEqualTo("node-1");
    assertThat(prepare.pluginDataDirectory()).isEqualTo(root.resolve("plugins").resolve(DRIVER));
    // The kubelet allows 45 s; what the driver sees is a little less, never more.
    assertThat(prepare.deadline()).isPresent();
    assertThat(prepare.timeRemaining().orElseThrow())
        .isLessThanOrEqualTo(Duration.ofSeconds(45)).isGreaterThan(Duration.ofSeconds(30));
    assertThat(driver.cancelledDuringCall).containsExactly(false);
    assertThat(prepare.isCancelled()).as("after the call has ended").isTrue();
    assertThat(prepare.requestId()).isNotEmpty();
    assertThat(prepare.mdc()).containsEntry("requestID", prepare.requestId())
        .containsEntry("claim", "default/c:" + uid);
    assertThat(driver.contexts.get(1).requestId()).isNotEqualTo(prepare.requestId());
  }

  @Test
  void aCallTheKubeletGaveUpOnIsCancelledForTheDriver() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    AtomicReference<Boolean> sawCancel = new AtomicReference<>();
    RecordingDriver driver = new RecordingDriver(DRIVER) {
      @Override
      public Map<String, PrepareResult> prepareResourceClaims(List<ResourceClaim> claims,
          CallContext context) throws Exception {
        entered.countDown();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!context.isCancelled() && System.nanoTime() < end) {
          Thread.sleep(10);
        }
        sawCancel.set(context.isCancelled());
        assertThatThrownBy(context::throwIfCancelled)
            .hasMessageStartingWith("NodePrepareResources was cancelled");
        return super.prepareResourceClaims(claims, context);
      }
    };
    ResourceClaim stored = ClaimFixtures.store(client,
        ClaimFixtures.allocated("default", "slow", DRIVER));
    String uid = stored.getMetadata().getUid();
    try (KubeletPlugin plugin = TestPlugins.builder(driver, client, root).start()) {
      assertThatThrownBy(() -> kubelet.draV1(plugin.draSocket())
          .withDeadlineAfter(300, TimeUnit.MILLISECONDS)
          .nodePrepareResources(NodePrepareResourcesRequest.newBuilder()
              .addClaims(claim("default", "slow", uid)).build()))
          .hasMessageContaining("DEADLINE_EXCEEDED");
      assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
      await().atMost(Duration.ofSeconds(20)).until(() -> sawCancel.get() != null);
    }
    assertThat(sawCancel.get()).as("the driver saw the cancellation").isTrue();
  }

  @Test
  void wrapCarriesTheCallsMdcToAnotherThreadAndRestoresThatThreadsOwn() throws Exception {
    MDC.put("requestID", "r-1");
    CallContext context;
    try {
      context = CallContext.detached("Test", "node-1", root);
    } finally {
      MDC.clear();
    }
    List<String> seen = new ArrayList<>();
    Thread thread = new Thread(() -> {
      MDC.put("own", "x");
      context.wrap(() -> seen.add(MDC.get("requestID") + "/" + MDC.get("own"))).run();
      seen.add(MDC.get("requestID") + "/" + MDC.get("own"));
    });
    thread.start();
    thread.join();

    assertThat(seen).containsExactly("r-1/null", "null/x");
    assertThat(context.requestId()).isEqualTo("r-1");
    assertThat(context.deadline()).isEmpty();
    assertThat(context.isCancelled()).isFalse();
  }

  @Test
  void startRunsBeforeTheSocketsExistAndStopAfterTheyAreGone() {
    List<String> events = new CopyOnWriteArrayList<>();
    Path registration = root.resolve("registry").resolve(DRIVER + "-reg.sock");
    AtomicReference<PluginContext> started = new AtomicReference<>();
    RecordingDriver driver = new RecordingDriver(DRIVER) {
      @Override
      public void start(PluginContext plugin) {
        started.set(plugin);
        events.add("start, socket exists: " + Files.exists(registration));
      }

      @Override
      public void stop() {
        events.add("stop, socket exists: " + Files.exists(registration));
      }
    };
    try (KubeletPlugin plugin = TestPlugins.builder(driver, client, root).start()) {
      assertThat(registration).exists();
      events.add("serving");
    }

    assertThat(events).containsExactly("start, socket exists: false", "serving",
        "stop, socket exists: false");
    PluginContext context = started.get();
    assertThat(context.driverName()).isEqualTo(DRIVER);
    assertThat(context.nodeName()).isEqualTo("node-1");
    assertThat(context.pluginDataDirectory()).isEqualTo(root.resolve("plugins").resolve(DRIVER));
    assertThat(context.kubeClient()).isSameAs(client);
  }

  @Test
  void aDriverThatCannotStartFailsTheStartAndNothingServes() {
    RecordingDriver driver = new RecordingDriver(DRIVER) {
      @Override
      public void start(PluginContext plugin) throws Exception {
        throw new java.io.IOException("checkpoint unreadable");
      }

      @Override
      public void stop() {
        throw new AssertionError("stop must not follow a failed start");
      }
    };

    assertThatThrownBy(() -> TestPlugins.builder(driver, client, root).start())
        .isInstanceOf(PluginStartException.class)
        .hasMessage("start driver gpu.example.com: checkpoint unreadable");
    assertThat(root.resolve("registry").resolve(DRIVER + "-reg.sock")).doesNotExist();
    assertThat(root.resolve("plugins").resolve(DRIVER).resolve("dra.sock")).doesNotExist();
  }
}
