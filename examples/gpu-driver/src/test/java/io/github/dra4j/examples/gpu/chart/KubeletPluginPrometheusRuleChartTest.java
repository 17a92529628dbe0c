package io.github.dra4j.examples.gpu.chart;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The PrometheusRule of {@code kubeletplugin-prometheusrule.yaml}: its expressions read only
 * series the SDK exports (the README's metrics table), Prometheus' own {@code promtool} accepts
 * the rules, and {@code promtool test rules} shows each alert firing for the plugin whose series
 * say so, at the time it should, and for no other driver or healthy plugin.
 */
class KubeletPluginPrometheusRuleChartTest {

  private static final Pattern SERIES = Pattern.compile("\\bdra4j_[a-z_]+");
  private static final Pattern README_ROW = Pattern
      .compile("^\\| `(dra4j_[a-z_]+)` \\| ([a-z, ]+) \\|");
  private static final List<String> ALERTS = List.of("Dra4jGpuClaimPrepareFailures",
      "Dra4jGpuClaimUnprepareFailures", "Dra4jGpuClaimPrepareSlow",
      "Dra4jGpuResourceSlicesNotPublished", "Dra4jGpuPluginErrors",
      "Dra4jGpuCheckpointCorrupted", "Dra4jGpuPluginRefusingConnections",
      "Dra4jGpuDeviceUnhealthy", "Dra4jGpuPluginDown");

  @TempDir
  Path dir;

  private static List<Map<String, Object>> rules(Rendered rendered) {
    List<Map<String, Object>> rules = new ArrayList<>();
    for (Map<String, Object> group : groups(rendered.generic("PrometheusRule"))) {
      rules.addAll(list(group.get("rules")));
    }
    return rules;
  }

  @Test
  void offByDefaultAndEveryAlertWithTheServiceMonitor() {
    assertThat(Helm.require().template().all(GenericKubernetesResource.class)).isEmpty();

    Rendered rendered = Helm.require().template("--set", "monitoring.prometheusRule.enabled=true",
        "--set", "monitoring.serviceMonitor.enabled=true",
        "--set", "monitoring.prometheusRule.labels.release=prom");
    GenericKubernetesResource rule = rendered.generic("PrometheusRule");
    assertThat(rule.getApiVersion()).isEqualTo("monitoring.coreos.com/v1");
    assertThat(rule.getMetadata().getNamespace()).isEqualTo(Helm.NAMESPACE);
    assertThat(rule.getMetadata().getLabels()).containsEntry("release", "prom");
    assertThat(rules(rendered)).extracting(r -> r.get("alert")).containsExactlyElementsOf(ALERTS);
  }

  @Test
  void everyAlertLinksToItsOwnSectionOfTheRunbook() throws IOException {
    Path runbook = Helm.CHART.resolve("../../../../../docs/operations.md").normalize();
    List<String> headings = Files.readAllLines(runbook, StandardCharsets.UTF_8).stream()
        .filter(line -> line.startsWith("### ")).map(line -> line.substring(4).strip()).toList();
    assertThat(headings).as("the runbook's sections").containsAll(ALERTS);

    Rendered rendered = Helm.require().template("--set", "monitoring.prometheusRule.enabled=true",
        "--set", "monitoring.serviceMonitor.enabled=true");
    for (Map<String, Object> rule : rules(rendered)) {
      Map<?, ?> annotations = (Map<?, ?>) rule.get("annotations");
      assertThat(annotations.get("runbook_url")).as("runbook_url of %s", rule.get("alert"))
          .isEqualTo("https://github.com/dra4j/dra4j/blob/main/docs/operations.md#"
              + rule.get("alert").toString().toLowerCase(Locale.ROOT));
    }

    Rendered without = Helm.require().template("--set", "monitoring.prometheusRule.enabled=true",
        "--set", "monitoring.prometheusRule.runbookUrl=");
    assertThat(rules(without)).allSatisfy(
        rule -> assertThat(((Map<?, ?>) rule.get("annotations")).containsKey("runbook_url"))
            .isFalse());
  }

  @Test
  void alertsCanBeLeftOutAndThePluginDownAlertNeedsTheServiceMonitor() {
    Rendered rendered = Helm.require().template(Helm.valuesFile("""
        monitoring:
          prometheusRule:
            enabled: true
            disabledAlerts: [Dra4jGpuPluginErrors, Dra4jGpuPluginRefusingConnections]
            slowPrepareSeconds: 2.5
        """));

    List<Map<String, Object>> rules = rules(rendered);
    assertThat(rules).extracting(r -> r.get("alert")).containsExactly(
        "Dra4jGpuClaimPrepareFailures", "Dra4jGpuClaimUnprepareFailures",
        "Dra4jGpuClaimPrepareSlow", "Dra4jGpuResourceSlicesNotPublished",
        "Dra4jGpuCheckpointCorrupted", "Dra4jGpuDeviceUnhealthy");
    assertThat(rules.get(2).get("expr").toString()).endsWith("> 2.5");
  }

  @Test
  void everyExpressionReadsSeriesTheSdkExports() throws IOException {
    Map<String, String> exported = exportedSeries();
    assertThat(exported).as("the README's metrics table").containsKey(
        "dra4j_plugin_claims_prepared_total");
    Rendered rendered = Helm.require().template("--set", "monitoring.prometheusRule.enabled=true",
        "--set", "monitoring.serviceMonitor.enabled=true", "--set", "driverName=gpu.acme.io");

    for (Map<String, Object> rule : rules(rendered)) {
      String expr = rule.get("expr").toString();
      Matcher series = SERIES.matcher(expr);
      while (series.find()) {
        assertThat(exported).as("%s reads %s", rule.get("alert"), series.group())
            .containsKey(series.group());
        assertThat(expr).as("%s keeps to its driver", rule.get("alert"))
            .contains(series.group() + "{driver_name=\"gpu.acme.io\"");
      }
      if (!expr.contains("dra4j_")) {
        assertThat(expr).as("%s: the scrape target's health", rule.get("alert"))
            .startsWith("up{job=\"gpu-dra4j-gpu-driver-kubelet-plugin-metrics\"");
      }
    }
  }

  @Test
  void promtoolAcceptsTheRulesAndTheirTemplates() throws IOException {
    Promtool promtool = Promtool.require();
    Rendered rendered = Helm.require().template("--set", "monitoring.prometheusRule.enabled=true",
        "--set", "monitoring.serviceMonitor.enabled=true");
    Files.writeString(dir.resolve("rules.yaml"),
        Serialization.asYaml(Map.of("groups", groups(rendered.generic("PrometheusRule")))));

    Helm.Result check = promtool.run(dir, "check", "rules", "rules.yaml");
    assertThat(check.exitCode()).as(check.describe()).isZero();
    assertThat(check.stdout()).contains("SUCCESS: " + ALERTS.size() + " rules found");

    // The annotations' templates expand with the alert's labels and value.
    Files.writeString(dir.resolve("test.yaml"),
        """
            rule_files: [rules.yaml]
            evaluation_interval: 1m
            tests:
              - interval: 1m
                input_series:
                  - series: 'dra4j_plugin_claims_prepared_total{driver_name="gpu.example.com", result="error", namespace="ns", pod="p1", node="n1"}'
                    values: '0 0 2 2 2 2'
                alert_rule_test:
                  - eval_time: 5m
                    alertname: Dra4jGpuClaimPrepareFailures
                    exp_alerts:
                      - exp_labels: {severity: warning, namespace: ns, pod: p1, node: n1}
                        exp_annotations:
                          summary: The gpu.example.com kubelet plugin failed to prepare claims
                          description: "Claims failed to prepare on node n1 (pod ns/p1): 2 in 10 minutes. Their pods wait in ContainerCreating. The plugin's log names each claim and the reason."
                          runbook_url: https://github.com/dra4j/dra4j/blob/main/docs/operations.md#dra4jgpuclaimpreparefailures
            """);
    Helm.Result test = promtool.run(dir, "test", "rules", "test.yaml");
    assertThat(test.exitCode()).as(test.describe()).isZero();
  }

  @Test
  void eachAlertFiresForThePluginWhoseSeriesSaySoAndForNoOther() throws IOException {
    Promtool promtool = Promtool.require();
    Rendered rendered = Helm.require().template("--set", "monitoring.prometheusRule.enabled=true",
        "--set", "monitoring.serviceMonitor.enabled=true");
    List<Map<String, Object>> groups = groups(rendered.generic("PrometheusRule"));
    for (Map<String, Object> group : groups) {
      // promtool compares annotations too; the test above checks them
      list(group.get("rules")).forEach(r -> r.remove("annotations"));
    }
    Files.writeString(dir.resolve("rules.yaml"), Serialization.asYaml(Map.of("groups", groups)));
    Path test = dir.resolve("test.yaml");
    try (var in = KubeletPluginPrometheusRuleChartTest.class.getResourceAsStream(
        "prometheusrule-test.yaml")) {
      assertThat(in).as("prometheusrule-test.yaml next to this class").isNotNull();
      Files.write(test, in.readAllBytes());
    }

    Helm.Result result = promtool.run(dir, "test", "rules", "test.yaml");
    assertThat(result.exitCode()).as(result.describe()).isZero();
    String tests = Files.readString(test, StandardCharsets.UTF_8);
    assertThat(ALERTS).as("every alert is tested")
        .allSatisfy(alert -> assertThat(tests).contains("alertname: " + alert));
  }

  /**
   * The series a plugin exports, from the metrics table of dra4j's README: name to kind. A
   * counter is its {@code _total} series; a timer its {@code _count}, {@code _sum} and {@code
   * _max}, plus {@code _bucket} with a histogram; a gauge its name.
   */
  private static Map<String, String> exportedSeries() throws IOException {
    Path readme = Helm.CHART.resolve("../../../../../README.md").normalize();
    Map<String, String> series = new LinkedHashMap<>();
    for (String line : Files.readAllLines(readme, StandardCharsets.UTF_8)) {
      Matcher row = README_ROW.matcher(line);
      if (!row.find()) {
        continue;
      }
      String name = row.group(1);
      String kind = row.group(2).strip();
      if (kind.startsWith("timer")) {
        Set<String> suffixes = new HashSet<>(List.of("_count", "_sum", "_max"));
        if (kind.contains("histogram")) {
          suffixes.add("_bucket");
        }
        suffixes.forEach(suffix -> series.put(name + suffix, kind));
      } else {
        series.put(name, kind);
      }
    }
    return series;
  }

  private static List<Map<String, Object>> groups(GenericKubernetesResource rule) {
    Object spec = rule.getAdditionalProperties().get("spec");
    assertThat(spec).isInstanceOf(Map.class);
    return list(((Map<?, ?>) spec).get("groups"));
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> list(Object value) {
    assertThat(value).isInstanceOf(List.class);
    return (List<Map<String, Object>>) value;
  }
}
