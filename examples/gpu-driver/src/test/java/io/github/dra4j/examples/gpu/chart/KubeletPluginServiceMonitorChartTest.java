package io.github.dra4j.examples.gpu.chart;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Service;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The ServiceMonitor of {@code kubeletplugin-servicemonitor.yaml}: off by default; when on it
 * selects exactly the plugin's metrics Service (not the webhook's), scrapes its named port and
 * labels each sample with the plugin pod's node.
 */
class KubeletPluginServiceMonitorChartTest {

  @Test
  void offByDefault() {
    assertThat(Helm.require().template().all(GenericKubernetesResource.class)).isEmpty();
  }

  @Test
  void scrapesEveryPluginThroughItsMetricsServiceLabelledWithTheNode() {
    Rendered rendered = Helm.require().templateIn("gpu-drivers",
        "--set", "monitoring.serviceMonitor.enabled=true",
        "--set", "monitoring.serviceMonitor.interval=15s",
        "--set", "monitoring.serviceMonitor.scrapeTimeout=5s",
        "--set", "monitoring.serviceMonitor.labels.release=kube-prometheus-stack",
        "--set", "webhook.enabled=true");

    GenericKubernetesResource monitor = rendered.generic("ServiceMonitor");
    assertThat(monitor.getApiVersion()).isEqualTo("monitoring.coreos.com/v1");
    assertThat(monitor.getMetadata().getNamespace()).isEqualTo("gpu-drivers");
    assertThat(monitor.getMetadata().getLabels())
        .containsEntry("release", "kube-prometheus-stack");
    Map<String, Object> spec = map(monitor.getAdditionalProperties().get("spec"));
    assertThat(spec.get("namespaceSelector"))
        .isEqualTo(Map.of("matchNames", List.of("gpu-drivers")));
    Map<String, Object> matchLabels = map(map(spec.get("selector")).get("matchLabels"));

    Service metrics = rendered.named(Service.class, "gpu-dra4j-gpu-driver-kubelet-plugin-metrics");
    List<Service> selected = rendered.all(Service.class).stream()
        .filter(s -> s.getMetadata().getLabels().entrySet().containsAll(matchLabels.entrySet()))
        .toList();
    assertThat(selected).as("the Services the ServiceMonitor selects").containsExactly(metrics);

    List<Object> endpoints = list(spec.get("endpoints"));
    assertThat(endpoints).hasSize(1);
    Map<String, Object> endpoint = map(endpoints.get(0));
    assertThat(endpoint.get("port")).as("a port name of the Service")
        .isEqualTo(metrics.getSpec().getPorts().get(0).getName());
    assertThat(endpoint).containsEntry("path", "/metrics").containsEntry("scheme", "http")
        .containsEntry("interval", "15s").containsEntry("scrapeTimeout", "5s");
    assertThat(endpoint.get("relabelings")).isEqualTo(List.of(Map.of("action", "replace",
        "sourceLabels", List.of("__meta_kubernetes_pod_node_name"), "targetLabel", "node")));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object value) {
    assertThat(value).isInstanceOf(Map.class);
    return (Map<String, Object>) value;
  }

  @SuppressWarnings("unchecked")
  private static List<Object> list(Object value) {
    assertThat(value).isInstanceOf(List.class);
    return (List<Object>) value;
  }
}
