package io.github.dra4j.examples.gpu.chart;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import org.junit.jupiter.api.Test;

/**
 * The webhook's PodDisruptionBudget ({@code webhook-pdb.yaml}): with the webhook on, a drain
 * evicts its replicas one at a time, the budget covers exactly the Deployment's pods, and a pod
 * that never became ready does not hold a drain up. Budgets that would hold every drain up are
 * refused in {@link ValuesChecksChartTest}.
 */
class WebhookDisruptionBudgetChartTest {

  @Test
  void theReplicasAreEvictedOneAtATime() {
    Rendered rendered = Helm.require().template("--set", "webhook.enabled=true");

    PodDisruptionBudget budget = rendered.one(PodDisruptionBudget.class);
    Deployment deployment = rendered.one(Deployment.class);
    assertThat(budget.getMetadata().getName()).isEqualTo(deployment.getMetadata().getName());
    assertThat(budget.getMetadata().getNamespace()).isEqualTo(Helm.NAMESPACE);
    assertThat(budget.getSpec().getMaxUnavailable()).isEqualTo(new IntOrString(1));
    assertThat(budget.getSpec().getMinAvailable()).isNull();
    assertThat(budget.getSpec().getSelector().getMatchLabels())
        .as("the budget covers the webhook's pods")
        .isEqualTo(deployment.getSpec().getSelector().getMatchLabels());
    assertThat(deployment.getSpec().getTemplate().getMetadata().getLabels())
        .containsAllEntriesOf(budget.getSpec().getSelector().getMatchLabels());
    assertThat(rendered.one(DaemonSet.class)
        .getSpec().getTemplate().getMetadata().getLabels())
        .as("and not the plugin's")
        .doesNotContainEntry("app.kubernetes.io/component", "webhook");
    assertThat(budget.getSpec().getUnhealthyPodEvictionPolicy()).isEqualTo("AlwaysAllow");
  }

  @Test
  void minAvailableReplacesMaxUnavailable() {
    PodDisruptionBudget budget = Helm.require().template("--set", "webhook.enabled=true",
        "--set", "webhook.replicas=4", "--set", "webhook.podDisruptionBudget.minAvailable=50%")
        .one(PodDisruptionBudget.class);

    assertThat(budget.getSpec().getMinAvailable()).isEqualTo(new IntOrString("50%"));
    assertThat(budget.getSpec().getMaxUnavailable()).isNull();
  }

  @Test
  void noBudgetWithoutTheWebhookOrWhenTurnedOff() {
    assertThat(Helm.require().template().all(PodDisruptionBudget.class)).isEmpty();
    assertThat(Helm.require().template("--set", "webhook.enabled=true",
        "--set", "webhook.podDisruptionBudget.enabled=false").all(PodDisruptionBudget.class))
        .isEmpty();
  }
}
