package io.github.dra4j.examples.gpu.chart;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.RollingUpdateDaemonSet;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.math.BigDecimal;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The checks of {@code values-checks.yaml}: combinations of values the schema cannot compare are
 * refused by {@code helm template} with a message naming the values, and the combinations next to
 * them still render. Also that the schema's quantity and percentage patterns accept what
 * Kubernetes accepts.
 */
class ValuesChecksChartTest {

  @ParameterizedTest(name = "{0} refused")
  @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
      kubeletPlugin.metrics.port=51515 | kubeletPlugin.metrics.port and kubeletPlugin.healthcheckPort are both 51515
      kubeletPlugin.healthcheckPort=8080 | kubeletPlugin.metrics.port and kubeletPlugin.healthcheckPort are both 8080
      kubeletPlugin.updateStrategy.rollingUpdate.maxSurge=0 | maxSurge (0) and maxUnavailable (0) are both zero
      kubeletPlugin.updateStrategy.rollingUpdate.maxSurge=0% | maxSurge (0%) and maxUnavailable (0) are both zero
      monitoring.serviceMonitor.enabled=true,kubeletPlugin.metrics.enabled=false | monitoring.serviceMonitor.enabled is true but kubeletPlugin.metrics.enabled is false
      webhook.enabled=true,webhook.podDisruptionBudget.minAvailable=2 | webhook.podDisruptionBudget.minAvailable (2) leaves none of webhook.replicas (2) to evict
      webhook.enabled=true,webhook.replicas=3,webhook.podDisruptionBudget.minAvailable=100% | webhook.podDisruptionBudget.minAvailable (100%) leaves none of webhook.replicas (3)
      webhook.enabled=true,webhook.podDisruptionBudget.maxUnavailable=0 | webhook.podDisruptionBudget.maxUnavailable (0) lets no replica be evicted
      webhook.enabled=true,webhook.podDisruptionBudget.maxUnavailable=0% | webhook.podDisruptionBudget.maxUnavailable (0%) lets no replica be evicted
      """)
  void combinationsTheSchemaCannotCompareAreRefusedNamingTheValues(String set, String message) {
    Helm.Result result = Helm.require().templateResult(Helm.NAMESPACE, "--set", set);

    assertThat(result.exitCode()).as("%s refused:\n%s", set, result.describe()).isNotZero();
    assertThat(result.stderr()).as(result.describe()).contains("values-checks.yaml")
        .contains(message);
  }

  @Test
  void theCombinationsNextToTheRefusedOnesRender() {
    Helm helm = Helm.require();
    // the metrics port may equal the health port's default once metrics are off
    helm.template("--set", "kubeletPlugin.metrics.enabled=false",
        "--set", "kubeletPlugin.metrics.port=51515");
    // zero surge is fine with nodes allowed to be unavailable, and OnDelete ignores both
    DaemonSet percent = helm
        .template("--set", "kubeletPlugin.updateStrategy.rollingUpdate.maxSurge=0",
            "--set", "kubeletPlugin.updateStrategy.rollingUpdate.maxUnavailable=10%")
        .one(DaemonSet.class);
    RollingUpdateDaemonSet rolling = percent.getSpec().getUpdateStrategy().getRollingUpdate();
    assertThat(rolling.getMaxSurge()).isEqualTo(new IntOrString(0));
    assertThat(rolling.getMaxUnavailable()).isEqualTo(new IntOrString("10%"));
    helm.template("--set", "kubeletPlugin.updateStrategy.type=OnDelete",
        "--set", "kubeletPlugin.updateStrategy.rollingUpdate.maxSurge=0");
    // a budget below the replicas, and any budget of a disabled webhook
    PodDisruptionBudget budget = helm.template("--set", "webhook.enabled=true",
        "--set", "webhook.replicas=3", "--set", "webhook.podDisruptionBudget.minAvailable=2")
        .one(PodDisruptionBudget.class);
    assertThat(budget.getSpec().getMinAvailable()).isEqualTo(new IntOrString(2));
    assertThat(budget.getSpec().getMaxUnavailable()).as("minAvailable replaces it").isNull();
    helm.template("--set", "webhook.podDisruptionBudget.maxUnavailable=0");
  }

  @Test
  void theSchemaAcceptsTheQuantitiesKubernetesAccepts() {
    String values = """
        kubeletPlugin:
          resources:
            requests:
              cpu: 0.5
              memory: 1.5Gi
              ephemeral-storage: 1e9
            limits:
              cpu: 1500m
              memory: "200M"
              nvidia.com/gpu: 1
        webhook:
          resources:
            requests:
              cpu: .25
              memory: 96Mi
            limits:
              memory: 128974848
        """;
    DaemonSet daemonSet = Helm.require().template(Helm.valuesFile(values)).one(DaemonSet.class);

    Container container = daemonSet.getSpec().getTemplate().getSpec().getContainers().get(0);
    Map<String, Quantity> requests = container.getResources().getRequests();
    Map<String, Quantity> limits = container.getResources().getLimits();
    assertThat(requests.get("cpu").getNumericalAmount()).isEqualByComparingTo("0.5");
    assertThat(requests.get("memory").getNumericalAmount())
        .isEqualByComparingTo(BigDecimal.valueOf(1536L * 1024 * 1024));
    assertThat(requests.get("ephemeral-storage").getNumericalAmount())
        .isEqualByComparingTo("1000000000");
    assertThat(limits.get("cpu").getNumericalAmount()).isEqualByComparingTo("1.5");
    assertThat(limits.get("memory").getNumericalAmount()).isEqualByComparingTo("200000000");
    assertThat(limits.get("nvidia.com/gpu").getNumericalAmount()).isEqualByComparingTo("1");
  }
}
