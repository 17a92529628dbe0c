package io.github.dra4j.kubeletplugin;

import static io.github.dra4j.kubeletplugin.testsupport.TestPlugins.DRIVER;
import static io.github.dra4j.testing.kubelet.KubeletClient.claim;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourcesRequest;
import io.github.dra4j.kubeletplugin.testsupport.ClaimFixtures;
import io.github.dra4j.kubeletplugin.testsupport.PluginTestBase;
import io.github.dra4j.kubeletplugin.testsupport.RecordingDriver;
import io.github.dra4j.kubeletplugin.testsupport.TestPlugins;
import io.github.dra4j.testing.kubelet.KubeletClient;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

/** Request IDs and claims in the logging context, call timers with the kubelet's labels. */
class ObservabilityTest extends PluginTestBase {

  private static final String PREPARE = "k8s.io.kubelet.pkg.apis.dra.v1.DRAPlugin/NodePrepareResources";

  @Test
  void theDriverRunsWithRequestIdMethodAndClaimInTheMdc() {
    RecordingDriver driver = new RecordingDriver(DRIVER);
    String uid = ClaimFixtures.store(client, ClaimFixtures.allocated("ns-a", "c", DRIVER))
        .getMetadata().getUid();
    try (KubeletPlugin plugin = TestPlugins.builder(driver, client, root).start()) {
      kubelet.prepare(plugin.draSocket(), claim("ns-a", "c", uid));
      kubelet.unprepare(plugin.draSocket(), claim("ns-a", "c", uid));
    }

    Map<String, String> prepare = driver.calls().get(0).mdc();
    Map<String, String> unprepare = driver.calls().get(1).mdc();
    assertThat(prepare).containsEntry("method", PREPARE)
        .containsEntry("claim", "ns-a/c:" + uid)
        .containsKey("requestID");
    assertThat(unprepare).containsEntry("method",
        "k8s.io.kubelet.pkg.apis.dra.v1.DRAPlugin/NodeUnprepareResources");
    assertThat(unprepare.get("requestID")).isNotEqualTo(prepare.get("requestID"));
  }

  @Test
  void everyCallIsTimedWithDriverMethodAndGoStatusCode() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    String uid = ClaimFixtures.store(client, ClaimFixtures.allocated("default", "c", DRIVER))
        .getMetadata().getUid();
    try (KubeletPlugin plugin = TestPlugins.builder(new RecordingDriver(DRIVER), client, root)
        .meterRegistry(registry).services(s -> s.withMaxClaimsPerCall(1)).start()) {
      kubelet.prepare(plugin.draSocket(), claim("default", "c", uid));
      kubelet.prepare(plugin.draSocket(), claim("default", "c", uid));
      assertThatThrownBy(() -> kubelet.draV1(plugin.draSocket()).nodePrepareResources(
          NodePrepareResourcesRequest.newBuilder()
              .addClaims(claim("default", "a", "a")).addClaims(claim("default", "b", "b"))
              .build()));
      kubelet.getInfo(plugin.registrationSocket());
    }

    Timer ok = registry.find("dra4j.grpc.operations.duration")
        .tags("driver_name", DRIVER, "method_name", "/" + PREPARE, "grpc_status_code", "OK")
        .timer();
    Timer invalid = registry.find("dra4j.grpc.operations.duration")
        .tags("method_name", "/" + PREPARE, "grpc_status_code", "InvalidArgument").timer();
    Timer info = registry.find("dra4j.grpc.operations.duration")
        .tags("method_name", "/pluginregistration.Registration/GetInfo").timer();
    assertThat(ok).isNotNull();
    assertThat(ok.count()).isEqualTo(2);
    assertThat(ok.totalTime(java.util.concurrent.TimeUnit.NANOSECONDS)).isPositive();
    assertThat(invalid).isNotNull();
    assertThat(invalid.count()).isEqualTo(1);
    assertThat(info).isNotNull();
  }

  @Test
  void everyClaimIsCountedByOutcomeWhereTheCallTimerSaysOk() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    String good = ClaimFixtures.store(client, ClaimFixtures.allocated("default", "good", DRIVER))
        .getMetadata().getUid();
    String bad = ClaimFixtures.store(client, ClaimFixtures.allocated("default", "bad", DRIVER))
        .getMetadata().getUid();
    RecordingDriver driver = new RecordingDriver(DRIVER)
        .answering(claim -> claim.getMetadata().getName().equals("bad")
            ? PrepareResult.failed("no such GPU") : null);
    try (KubeletPlugin plugin = TestPlugins.builder(driver, client, root)
        .meterRegistry(registry).start()) {
      assertThat(counted(registry, "dra4j.plugin.claims.prepared", "success")).isZero();
      assertThat(counted(registry, "dra4j.plugin.claims.prepared", "error")).isZero();

      kubelet.prepare(plugin.draSocket(), claim("default", "good", good),
          claim("default", "bad", bad), claim("default", "gone", "no-such-uid"));
      kubelet.unprepare(plugin.draSocket(), claim("default", "good", good));
    }

    Timer ok = registry.find("dra4j.grpc.operations.duration")
        .tags("method_name", "/" + PREPARE, "grpc_status_code", "OK").timer();
    assertThat(ok.count()).as("one call, OK").isEqualTo(1);
    assertThat(counted(registry, "dra4j.plugin.claims.prepared", "success")).isEqualTo(1);
    assertThat(counted(registry, "dra4j.plugin.claims.prepared", "error")).isEqualTo(2);
    assertThat(counted(registry, "dra4j.plugin.claims.unprepared", "success")).isEqualTo(1);
    assertThat(counted(registry, "dra4j.plugin.claims.unprepared", "error")).isZero();

    // Each claim is timed too, with the time the kubelet waited, inside the call's own timing.
    Timer prepared = claimTimer(registry, "dra4j.plugin.claims.prepare.duration", "success");
    Timer failed = claimTimer(registry, "dra4j.plugin.claims.prepare.duration", "error");
    assertThat(prepared.count()).isEqualTo(1);
    assertThat(failed.count()).isEqualTo(2);
    assertThat(prepared.max(TimeUnit.NANOSECONDS)).isPositive()
        .isLessThanOrEqualTo(ok.max(TimeUnit.NANOSECONDS));
    assertThat(failed.totalTime(TimeUnit.NANOSECONDS))
        .as("both failed claims of the call waited as long as the good one")
        .isEqualTo(2 * prepared.totalTime(TimeUnit.NANOSECONDS));
    assertThat(claimTimer(registry, "dra4j.plugin.claims.unprepare.duration", "success").count())
        .isEqualTo(1);
    assertThat(claimTimer(registry, "dra4j.plugin.claims.unprepare.duration", "error").count())
        .isZero();
  }

  private static Timer claimTimer(SimpleMeterRegistry registry, String name, String result) {
    return registry.get(name).tags("driver_name", DRIVER, "result", result).timer();
  }

  @Test
  void theInFlightGaugeCountsCallsBeingHandled() throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    String uid = ClaimFixtures.store(client, ClaimFixtures.allocated("default", "slow", DRIVER))
        .getMetadata().getUid();
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    RecordingDriver driver = new RecordingDriver(DRIVER).answering(claim -> {
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return null;
    });
    try (KubeletPlugin plugin = TestPlugins.builder(driver, client, root)
        .meterRegistry(registry).start()) {
      var gauge = registry.get("dra4j.grpc.calls.in.flight").tag("driver_name", DRIVER).gauge();
      assertThat(gauge.value()).isZero();
      var call = java.util.concurrent.CompletableFuture.runAsync(
          () -> kubelet.prepare(plugin.draSocket(), claim("default", "slow", uid)));

      org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
          .until(() -> gauge.value() == 1.0);
      release.countDown();
      call.get(30, java.util.concurrent.TimeUnit.SECONDS);

      org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
          .until(() -> gauge.value() == 0.0);
    }
  }

  private static double counted(SimpleMeterRegistry registry, String name, String result) {
    // one series per reason of a failure: all of them
    return registry.get(name).tags("driver_name", DRIVER, "result", result).counters().stream()
        .mapToDouble(io.micrometer.core.instrument.Counter::count).sum();
  }

  @Test
  void prometheusShowsTheTimerUnderTheDocumentedNameAndLabels() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    try (KubeletPlugin plugin = TestPlugins.builder(new RecordingDriver(DRIVER), client, root)
        .meterRegistry(registry).start()) {
      kubelet.getInfo(plugin.registrationSocket());
    }

    String page = registry.scrape();
    assertThat(page).contains("dra4j_grpc_operations_duration_seconds_count{"
        + "driver_name=\"gpu.example.com\",grpc_status_code=\"OK\","
        + "method_name=\"/pluginregistration.Registration/GetInfo\"} 1");
    // One short bucket list for every call histogram: 0.5 ms to the kubelet's 45 s, and +Inf.
    for (String histogram : List.of("dra4j_grpc_operations_duration_seconds_bucket{",
        "dra4j_plugin_claims_prepare_duration_seconds_bucket{")) {
      List<String> buckets = page.lines().filter(line -> line.startsWith(histogram))
          .filter(line -> line.contains("OK") || line.contains("success")).toList();
      assertThat(buckets).as(histogram).hasSize(17);
      assertThat(buckets.get(0)).contains("le=\"5.0E-4\"");
      assertThat(buckets.get(15)).contains("le=\"45.0\"");
      assertThat(buckets.get(16)).contains("le=\"+Inf\"");
    }
  }

  @Test
  void userInterceptorsRunAfterTheSdksOwnInTheOrderAdded() {
    List<String> seen = new CopyOnWriteArrayList<>();
    try (KubeletPlugin plugin = TestPlugins.builder(new RecordingDriver(DRIVER), client, root)
        .interceptor(recording("first", seen))
        .interceptor(recording("second", seen))
        .start()) {
      kubelet.getInfo(plugin.registrationSocket());
    }

    assertThat(seen).hasSize(2);
    assertThat(seen.get(0)).startsWith("first requestID=");
    assertThat(seen.get(1)).startsWith("second requestID=");
    assertThat(seen.get(0)).doesNotEndWith("=null");
  }

  private static ServerInterceptor recording(String name, List<String> seen) {
    return new ServerInterceptor() {
      @Override
      public <Q, R> ServerCall.Listener<Q> interceptCall(
          ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        seen.add(name + " requestID=" + MDC.get("requestID"));
        return next.startCall(call, headers);
      }
    };
  }
}
