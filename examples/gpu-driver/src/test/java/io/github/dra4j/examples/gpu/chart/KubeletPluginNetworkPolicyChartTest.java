package io.github.dra4j.examples.gpu.chart;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Who may reach the kubelet plugin's TCP ports: its NetworkPolicy selects exactly the DaemonSet's
 * pods and opens only the metrics port, to the scrapers in {@code networkPolicy.metricsFrom};
 * the health port is left to the pod's own node, which NetworkPolicy always lets in (the kubelet's
 * probes). The health port listens on the pod's own address, where those probes connect.
 */
class KubeletPluginNetworkPolicyChartTest {

  private static final IntOrString METRICS = new IntOrString(8080);

  private static Container container(DaemonSet daemonSet) {
    return daemonSet.getSpec().getTemplate().getSpec().getContainers().get(0);
  }

  private static Optional<EnvVar> env(Container container, String name) {
    return container.getEnv().stream().filter(e -> name.equals(e.getName())).findFirst();
  }

  @Test
  void theDefaultPolicyLetsOnlyTheMonitoringNamespaceScrapeAndNobodyElseIn() {
    Rendered rendered = Helm.require().template();
    DaemonSet daemonSet = rendered.one(DaemonSet.class);
    NetworkPolicy policy = rendered.one(NetworkPolicy.class);

    assertThat(policy.getMetadata().getName()).isEqualTo("gpu-dra4j-gpu-driver-kubelet-plugin");
    assertThat(policy.getMetadata().getNamespace()).isEqualTo(Helm.NAMESPACE);
    assertThat(policy.getSpec().getPodSelector().getMatchLabels())
        .as("selects the DaemonSet's pods")
        .isEqualTo(daemonSet.getSpec().getSelector().getMatchLabels());
    assertThat(daemonSet.getSpec().getTemplate().getMetadata().getLabels())
        .containsAllEntriesOf(policy.getSpec().getPodSelector().getMatchLabels());
    assertThat(policy.getSpec().getPolicyTypes()).as("egress (the API server) left alone")
        .containsExactly("Ingress");

    NetworkPolicyIngressRule rule = policy.getSpec().getIngress().get(0);
    assertThat(policy.getSpec().getIngress()).hasSize(1);
    assertThat(rule.getPorts()).singleElement().satisfies(port -> {
      assertThat(port.getPort()).isEqualTo(METRICS);
      assertThat(port.getProtocol()).isEqualTo("TCP");
    });
    ContainerPort metricsPort = container(daemonSet).getPorts().stream()
        .filter(p -> p.getName().equals("metrics")).findFirst().orElseThrow();
    assertThat(metricsPort.getContainerPort()).as("the port the rule opens is the plugin's")
        .isEqualTo(8080);
    assertThat(rule.getFrom()).singleElement().satisfies(peer -> {
      assertThat(peer.getNamespaceSelector().getMatchLabels())
          .containsExactly(Map.entry("kubernetes.io/metadata.name", "monitoring"));
      assertThat(peer.getPodSelector()).isNull();
    });
    int health = container(daemonSet).getLivenessProbe().getGrpc().getPort();
    assertThat(policy.getSpec().getIngress()).flatExtracting(NetworkPolicyIngressRule::getPorts)
        .extracting(NetworkPolicyPort::getPort)
        .as("no rule opens the health port: only the node's kubelet reaches it")
        .doesNotContain(new IntOrString(health));
  }

  @Test
  void theScrapersAndMoreRulesAreValuesAndWithoutMetricsNothingIsOpen() {
    String values = """
        networkPolicy:
          metricsFrom:
            - namespaceSelector:
                matchLabels:
                  kubernetes.io/metadata.name: observability
              podSelector:
                matchLabels:
                  app.kubernetes.io/name: prometheus
          extraIngress:
            - ports:
                - port: 9999
        """;
    NetworkPolicy policy = Helm.require().template(Helm.valuesFile(values))
        .one(NetworkPolicy.class);

    assertThat(policy.getSpec().getIngress()).hasSize(2);
    NetworkPolicyPeer peer = policy.getSpec().getIngress().get(0).getFrom().get(0);
    assertThat(peer.getNamespaceSelector().getMatchLabels())
        .containsExactly(Map.entry("kubernetes.io/metadata.name", "observability"));
    assertThat(peer.getPodSelector().getMatchLabels())
        .containsExactly(Map.entry("app.kubernetes.io/name", "prometheus"));
    assertThat(policy.getSpec().getIngress().get(1).getPorts().get(0).getPort())
        .isEqualTo(new IntOrString(9999));

    NetworkPolicy closed = Helm.require().template("--set", "kubeletPlugin.metrics.enabled=false")
        .one(NetworkPolicy.class);
    assertThat(closed.getSpec().getIngress()).as("ingress: [], only the node gets in")
        .isNotNull().isEmpty();
    NetworkPolicy nobody = Helm.require().template("--set-json", "networkPolicy.metricsFrom=[]")
        .one(NetworkPolicy.class);
    assertThat(nobody.getSpec().getIngress()).isNotNull().isEmpty();
  }

  @Test
  void thePolicyCanBeTurnedOff() {
    assertThat(Helm.require().template("--set", "networkPolicy.enabled=false")
        .all(NetworkPolicy.class)).isEmpty();
  }

  @Test
  void theHealthPortListensOnThePodsOwnAddressUnlessToldOtherwise() {
    EnvVar address = env(container(Helm.require().template().one(DaemonSet.class)),
        "HEALTHCHECK_ADDRESS").orElseThrow();
    assertThat(address.getValueFrom().getFieldRef().getFieldPath()).isEqualTo("status.podIP");

    assertThat(env(container(Helm.require().template("--set",
        "kubeletPlugin.healthcheckBindAddress=").one(DaemonSet.class)), "HEALTHCHECK_ADDRESS"))
        .as("every address").isEmpty();
    assertThat(env(container(Helm.require().template("--set",
        "kubeletPlugin.healthcheckBindAddress=fd00::5").one(DaemonSet.class)),
        "HEALTHCHECK_ADDRESS")).hasValueSatisfying(
            e -> assertThat(e.getValue())
                .isEqualTo("fd00::5"));
  }
}
