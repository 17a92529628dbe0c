package io.github.dra4j.resourceapi.internal.strategy;

import static io.github.dra4j.resourceapi.TestJson.read;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.github.dra4j.resourceapi.FeatureGates;
import io.github.dra4j.resourceapi.TestJson;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class DeviceTaintRuleStrategyTest {

  private static final FeatureGates DEFAULTS = FeatureGates.kubernetes136();
  /** The fixed time the tests run at. */
  private static Instant clock() {
    return Instant.parse("2026-05-01T12:00:00.5Z");
  }

  private static DeviceTaintRule rule(String taint, String status) {
    return read("{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"DeviceTaintRule\","
        + "\"metadata\":{\"name\":\"r\",\"generation\":3,\"labels\":{\"l\":\"1\"}},"
        + "\"spec\":{\"deviceSelector\":{\"driver\":\"d.example.com\"},\"taint\":" + taint + "}"
        + (status == null ? "" : ",\"status\":" + status) + "}", DeviceTaintRule.class);
  }

  private static final String CONDITIONS = "{\"conditions\":[{\"type\":\"EvictionInProgress\","
      + "\"status\":\"False\",\"reason\":\"R\",\"message\":\"m\","
      + "\"lastTransitionTime\":\"2026-01-01T00:00:00Z\"}]}";

  @Test
  void createClearsStatusAndSetsGenerationOne() {
    DeviceTaintRule rule = rule("{\"key\":\"k\",\"effect\":\"NoSchedule\"}", CONDITIONS);
    DeviceTaintRuleStrategy.prepareForCreate(rule, DEFAULTS);
    assertThat(rule.getStatus().getConditions()).isEmpty();
    assertThat(rule.getMetadata().getGeneration()).isEqualTo(1L);
  }

  @Test
  void effectChangeWithSameTimeSetsNow() {
    DeviceTaintRule old = rule("{\"key\":\"k\",\"effect\":\"NoSchedule\","
        + "\"timeAdded\":\"2026-01-01T00:00:00Z\"}", CONDITIONS);
    DeviceTaintRule rule = rule("{\"key\":\"k\",\"effect\":\"NoExecute\","
        + "\"timeAdded\":\"2026-01-01T00:00:00Z\"}", null);
    DeviceTaintRuleStrategy.prepareForUpdate(
        rule, old, DEFAULTS, DeviceTaintRuleStrategyTest::clock);
    assertThat(rule.getSpec().getTaint().getTimeAdded()).isEqualTo("2026-05-01T12:00:00Z");
    assertThat(rule.getMetadata().getGeneration()).isEqualTo(4L);
    assertThat(rule.getStatus().getConditions()).hasSize(1);
  }

  @Test
  void effectChangeWithNewTimeKeepsIt() {
    DeviceTaintRule old = rule("{\"key\":\"k\",\"effect\":\"NoSchedule\","
        + "\"timeAdded\":\"2026-01-01T00:00:00Z\"}", null);
    DeviceTaintRule rule = rule("{\"key\":\"k\",\"effect\":\"NoExecute\","
        + "\"timeAdded\":\"2026-02-01T00:00:00Z\"}", null);
    DeviceTaintRuleStrategy.prepareForUpdate(
        rule, old, DEFAULTS, DeviceTaintRuleStrategyTest::clock);
    assertThat(rule.getSpec().getTaint().getTimeAdded()).isEqualTo("2026-02-01T00:00:00Z");
  }

  @Test
  void sameInstantInAnotherZoneCountsAsUnchanged() {
    DeviceTaintRule old = rule("{\"key\":\"k\",\"effect\":\"NoSchedule\","
        + "\"timeAdded\":\"2026-01-01T00:00:00Z\"}", null);
    DeviceTaintRule rule = rule("{\"key\":\"k\",\"effect\":\"None\","
        + "\"timeAdded\":\"2026-01-01T01:00:00+01:00\"}", null);
    DeviceTaintRuleStrategy.prepareForUpdate(
        rule, old, DEFAULTS, DeviceTaintRuleStrategyTest::clock);
    assertThat(rule.getSpec().getTaint().getTimeAdded()).isEqualTo("2026-05-01T12:00:00Z");
  }

  @Test
  void keyChangeKeepsTimeButBumpsGeneration() {
    DeviceTaintRule old = rule("{\"key\":\"k\",\"effect\":\"NoSchedule\","
        + "\"timeAdded\":\"2026-01-01T00:00:00Z\"}", null);
    DeviceTaintRule rule = rule("{\"key\":\"other\",\"effect\":\"NoSchedule\","
        + "\"timeAdded\":\"2026-01-01T00:00:00Z\"}", null);
    DeviceTaintRuleStrategy.prepareForUpdate(
        rule, old, DEFAULTS, DeviceTaintRuleStrategyTest::clock);
    assertThat(rule.getSpec().getTaint().getTimeAdded()).isEqualTo("2026-01-01T00:00:00Z");
    assertThat(rule.getMetadata().getGeneration()).isEqualTo(4L);
  }

  @Test
  void unchangedSpecKeepsGeneration() {
    DeviceTaintRule old = rule("{\"key\":\"k\",\"effect\":\"NoSchedule\","
        + "\"timeAdded\":\"2026-01-01T00:00:00Z\"}", null);
    DeviceTaintRule rule = TestJson.copy(old);
    rule.getMetadata().setGeneration(10L);
    DeviceTaintRuleStrategy.prepareForUpdate(
        rule, old, DEFAULTS, DeviceTaintRuleStrategyTest::clock);
    assertThat(rule.getMetadata().getGeneration()).isEqualTo(3L);
  }

  @Test
  void statusUpdateKeepsSpecAndMetadata() {
    DeviceTaintRule old = rule("{\"key\":\"k\",\"effect\":\"NoSchedule\"}", null);
    DeviceTaintRule rule = rule("{\"key\":\"x\",\"effect\":\"NoExecute\"}", CONDITIONS);
    rule.getMetadata().setLabels(null);
    DeviceTaintRuleStrategy.prepareForStatusUpdate(rule, old, DEFAULTS);
    assertThat(rule.getSpec().getTaint().getKey()).isEqualTo("k");
    assertThat(rule.getMetadata().getLabels()).containsEntry("l", "1");
    assertThat(rule.getStatus().getConditions()).hasSize(1);
    assertThat(DeviceTaintRuleStrategy.warningsOnCreate(rule)).isEmpty();
    assertThat(DeviceTaintRuleStrategy.warningsOnUpdate(rule, old)).isEmpty();
  }
}
