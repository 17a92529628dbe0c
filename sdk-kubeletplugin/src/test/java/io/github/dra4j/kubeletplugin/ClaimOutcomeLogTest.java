package io.github.dra4j.kubeletplugin;

import static io.github.dra4j.kubeletplugin.testsupport.TestPlugins.DRIVER;
import static io.github.dra4j.testing.kubelet.KubeletClient.claim;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourcesRequest;
import io.github.dra4j.kubeletplugin.testsupport.ClaimFixtures;
import io.github.dra4j.kubeletplugin.testsupport.PluginTestBase;
import io.github.dra4j.kubeletplugin.testsupport.RecordingDriver;
import io.github.dra4j.kubeletplugin.testsupport.TestPlugins;
import io.github.dra4j.resourceclaim.config.ConfigException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * What an operator sees of each claim: one INFO line per claim prepared or unprepared, naming
 * the claim, the devices the pod gets and the time taken, with the call's request ID and method;
 * one line per failed claim, at the level it always had; and a bounded reason on the claim
 * counters of failed claims. The SDK's lines are captured with the tests' logback, which the SDK
 * itself does not depend on.
 */
class ClaimOutcomeLogTest extends PluginTestBase {

  private static final String PREPARE = "k8s.io.kubelet.pkg.apis.dra.v1.DRAPlugin/NodePrepareResources";

  private final ListAppender<ILoggingEvent> log = new ListAppender<>();
  private final Logger sdk = (Logger) LoggerFactory.getLogger("io.github.dra4j");

  @BeforeEach
  void capture() {
    log.start();
    sdk.addAppender(log);
  }

  @AfterEach
  void release() {
    sdk.detachAppender(log);
  }

  /** What was logged at INFO or above. */
  private List<ILoggingEvent> operatorLines() {
    return log.list.stream().filter(e -> e.getLevel().isGreaterOrEqual(Level.INFO))
        .collect(Collectors.toList());
  }

  private static Map<String, Object> pairs(ILoggingEvent event) {
    return event.getKeyValuePairs() == null ? Map.of() : event.getKeyValuePairs().stream()
        .collect(Collectors.toMap(pair -> pair.key, pair -> pair.value));
  }

  @Test
  void eachPreparedAndUnpreparedClaimIsOneInfoLineNamingItsDevicesAndTime() {
    String uid = ClaimFixtures.store(client, ClaimFixtures.allocated("ns-a", "gpu-claim", DRIVER))
        .getMetadata().getUid();
    try (KubeletPlugin plugin = TestPlugins.builder(new RecordingDriver(DRIVER), client, root)
        .start()) {
      log.list.clear();
      kubelet.prepare(plugin.draSocket(), claim("ns-a", "gpu-claim", uid));
      List<ILoggingEvent> prepared = operatorLines();
      log.list.clear();
      kubelet.unprepare(plugin.draSocket(), claim("ns-a", "gpu-claim", uid));
      List<ILoggingEvent> unprepared = operatorLines();

      assertThat(prepared).hasSize(1);
      ILoggingEvent line = prepared.get(0);
      assertThat(line.getLevel()).isEqualTo(Level.INFO);
      assertThat(line.getFormattedMessage()).isEqualTo("Prepared claim");
      assertThat(line.getMDCPropertyMap()).containsEntry("claim", "ns-a/gpu-claim:" + uid)
          .containsEntry("method", PREPARE).containsKey("requestID");
      Map<String, Object> pairs = pairs(line);
      assertThat(pairs).containsEntry("devices", List.of("node-1/gpu-0"))
          .containsEntry("cdiDevices", List.of("example.com/gpu=" + uid + "-gpu-0"));
      assertThat(pairs.get("durationMs")).isInstanceOf(Double.class);
      assertThat((Double) pairs.get("durationMs")).isPositive();

      assertThat(unprepared).hasSize(1);
      assertThat(unprepared.get(0).getFormattedMessage()).isEqualTo("Unprepared claim");
      assertThat(unprepared.get(0).getMDCPropertyMap())
          .containsEntry("claim", "ns-a/gpu-claim:" + uid)
          .containsEntry("method",
              "k8s.io.kubelet.pkg.apis.dra.v1.DRAPlugin/NodeUnprepareResources");
      assertThat(pairs(unprepared.get(0))).containsKey("durationMs")
          .doesNotContainKey("devices");
    }
  }

  @Test
  void aFailedClaimIsOneLineAtItsLevelAndCountedWithABoundedReason() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    String good = ClaimFixtures.store(client, ClaimFixtures.allocated("default", "good", DRIVER))
        .getMetadata().getUid();
    String broken = ClaimFixtures.store(client,
        ClaimFixtures.allocated("default", "broken", DRIVER)).getMetadata().getUid();
    String config = ClaimFixtures.store(client,
        ClaimFixtures.allocated("default", "config", DRIVER)).getMetadata().getUid();
    RecordingDriver driver = new RecordingDriver(DRIVER).answering(claim -> {
      return switch (claim.getMetadata().getName()) {
        case "broken" -> PrepareResult.failed("GPU gpu-0 fell off the bus");
        case "config" -> PrepareResult.failed("bad sharing strategy",
            new ConfigException("spec.devices.config[0]", "unknown strategy \"Fast\""));
        default -> null;
      };
    });
    try (KubeletPlugin plugin = TestPlugins.builder(driver, client, root)
        .meterRegistry(registry).services(s -> s.withMaxClaimsPerCall(4)).start()) {
      assertThat(failed(registry, "driver_error")).isZero();
      log.list.clear();
      kubelet.prepare(plugin.draSocket(), claim("default", "good", good),
          claim("default", "broken", broken), claim("default", "config", config),
          claim("default", "gone", "no-such-uid"));
      List<ILoggingEvent> lines = operatorLines();

      assertThat(lines).extracting(e -> e.getLevel() + " " + e.getMDCPropertyMap().get("claim"))
          .containsExactlyInAnyOrder("INFO default/good:" + good,
              "WARN default/broken:" + broken, "WARN default/config:" + config,
              "WARN default/gone:no-such-uid");
      assertThat(lines).filteredOn(e -> e.getLevel() == Level.WARN)
          .allSatisfy(e -> assertThat(pairs(e)).isEmpty());

      // a whole call refused: all its claims, one reason
      assertThatThrownBy(() -> kubelet.draV1(plugin.draSocket()).nodePrepareResources(
          NodePrepareResourcesRequest.newBuilder().addClaims(claim("default", "a", "1"))
              .addClaims(claim("default", "b", "2")).addClaims(claim("default", "c", "3"))
              .addClaims(claim("default", "d", "4")).addClaims(claim("default", "e", "5"))
              .build()));
      // a claim the kubelet sent twice
      kubelet.prepare(plugin.draSocket(), claim("default", "x", "dup"),
          claim("default", "x", "dup"));
    }

    assertThat(registry.get("dra4j.plugin.claims.prepared")
        .tags("result", "success", "reason", "none").counter().count()).isEqualTo(1);
    assertThat(failed(registry, "driver_error")).isEqualTo(1);
    assertThat(failed(registry, "invalid_config")).isEqualTo(1);
    assertThat(failed(registry, "claim_unavailable")).isEqualTo(1);
    assertThat(failed(registry, "invalid_request")).isEqualTo(5 + 1);
    assertThat(failed(registry, "overloaded")).isZero();
    // every series of the counter, from the start: one per reason, never free text
    assertThat(registry.get("dra4j.plugin.claims.prepared").counters())
        .extracting(counter -> counter.getId().getTag("reason"))
        .containsExactlyInAnyOrder("none", "invalid_request", "claim_unavailable", "overloaded",
            "invalid_config", "timeout", "cancelled", "driver_error", "internal");
  }

  @Test
  void aDriverThatThrowsOnAWholeCallIsOneErrorLineWithTheClaimAndTheStackTrace() {
    String uid = ClaimFixtures.store(client, ClaimFixtures.allocated("default", "bug", DRIVER))
        .getMetadata().getUid();
    RecordingDriver driver = new RecordingDriver(DRIVER).answering(claim -> {
      throw new IllegalStateException("driver bug");
    });
    try (KubeletPlugin plugin = TestPlugins.builder(driver, client, root).start()) {
      log.list.clear();
      assertThatThrownBy(() -> kubelet.prepare(plugin.draSocket(), claim("default", "bug", uid)))
          .hasMessageContaining("driver bug");

      List<ILoggingEvent> errors = log.list.stream().filter(e -> e.getLevel() == Level.ERROR)
          .collect(Collectors.toList());
      assertThat(errors).as("ERROR lines of one failed call").hasSize(1);
      assertThat(errors.get(0).getMDCPropertyMap().get("claim")).isEqualTo("default/bug:" + uid);
      assertThat(errors.get(0).getThrowableProxy().getMessage()).isEqualTo("driver bug");
    }
  }

  private static double failed(SimpleMeterRegistry registry, String reason) {
    Counter counter = registry.get("dra4j.plugin.claims.prepared")
        .tags("driver_name", DRIVER, "result", "error", "reason", reason).counter();
    return counter.count();
  }
}
