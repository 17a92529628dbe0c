package io.github.dra4j.examples.gpu.chart;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import org.junit.jupiter.api.Test;

/**
 * The webhook Deployment's plumbing: its probes reach the SDK's {@code /livez} and {@code
 * /readyz} on the HTTPS port, its meters are on {@code METRICS_PORT} (a container port and a
 * Service port named {@code metrics}, or {@code -1} when off), and a stopping pod waits before
 * SIGTERM while the Service drops it, all within the termination grace period.
 */
class WebhookProbesChartTest {

  @Test
  void theDeploymentProbesServesMetricsAndStopsGracefully() {
    Rendered rendered = Helm.require().template("--set", "webhook.enabled=true");
    PodSpec pod = rendered.one(Deployment.class).getSpec().getTemplate().getSpec();
    Container container = pod.getContainers().get(0);

    assertThat(container.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/readyz");
    assertThat(container.getReadinessProbe().getHttpGet().getPort())
        .isEqualTo(new IntOrString("https"));
    assertThat(container.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/livez");
    assertThat(container.getLivenessProbe().getHttpGet().getScheme()).isEqualTo("HTTPS");
    assertThat(env(container, "METRICS_PORT")).isEqualTo("8080");
    assertThat(container.getPorts())
        .extracting(ContainerPort::getName, ContainerPort::getContainerPort)
        .contains(org.assertj.core.api.Assertions.tuple("metrics", 8080));
    ServicePort metrics = rendered.all(Service.class).stream()
        .flatMap(service -> service.getSpec().getPorts().stream())
        .filter(port -> "metrics".equals(port.getName()) && port.getPort() == 8080
            && new IntOrString("metrics").equals(port.getTargetPort()))
        .findFirst().orElseThrow(() -> new AssertionError("no Service port metrics"));
    assertThat(metrics.getProtocol()).isEqualTo("TCP");
    long sleep = container.getLifecycle().getPreStop().getSleep().getSeconds();
    assertThat(sleep).isEqualTo(5);
    long terminationGrace = pod.getTerminationGracePeriodSeconds() == null ? 30
        : pod.getTerminationGracePeriodSeconds();
    assertThat(sleep + 5).as("the wait plus the SDK's 5 s for reviews in flight, before the"
        + " kubelet kills the container").isLessThan(terminationGrace);
  }

  @Test
  void metricsAndTheWaitCanBeTurnedOff() {
    Rendered rendered = Helm.require().template("--set", "webhook.enabled=true",
        "--set", "webhook.metrics.enabled=false", "--set", "webhook.preStopSleepSeconds=0");
    Container container = rendered.one(Deployment.class).getSpec().getTemplate().getSpec()
        .getContainers().get(0);

    assertThat(env(container, "METRICS_PORT")).isEqualTo("-1");
    assertThat(container.getPorts()).extracting(ContainerPort::getName).containsExactly("https");
    assertThat(container.getLifecycle()).isNull();
  }

  private static String env(Container container, String name) {
    return container.getEnv().stream().filter(var -> var.getName().equals(name))
        .map(EnvVar::getValue).findFirst().orElseThrow(() -> new AssertionError(name));
  }
}
