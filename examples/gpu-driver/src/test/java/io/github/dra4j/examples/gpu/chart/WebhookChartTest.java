package io.github.dra4j.examples.gpu.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.github.dra4j.webhook.WebhookRegistration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The optional webhook: off by default; when on, its ValidatingWebhookConfiguration is exactly what
 * the SDK's {@link WebhookRegistration} builds for the chart's Service and Certificate (only the
 * chart's labels differ), the Service reaches the container's HTTPS port, the certificate covers
 * the Service's DNS names and lands where the container reads it, and the webhook's account
 * carries no Kubernetes API access.
 */
class WebhookChartTest {

  @Test
  void theLivenessProbeTakesItsTimingFromTheValues() {
    Rendered rendered = Helm.require().template("--set", "webhook.enabled=true",
        "--set", "webhook.livenessProbe.periodSeconds=20",
        "--set", "webhook.livenessProbe.failureThreshold=2");

    Probe liveness = rendered.one(Deployment.class).getSpec().getTemplate().getSpec()
        .getContainers().get(0).getLivenessProbe();

    assertThat(liveness.getPeriodSeconds()).isEqualTo(20);
    assertThat(liveness.getFailureThreshold()).isEqualTo(2);
    assertThat(liveness.getHttpGet().getPath()).isEqualTo("/livez");
  }

  @Test
  void twoReplicasOnDifferentNodesAreRolledWithoutAGap() {
    Deployment deployment = Helm.require().template("--set", "webhook.enabled=true")
        .one(Deployment.class);

    assertThat(deployment.getSpec().getReplicas()).as("replicas by default").isEqualTo(2);
    assertThat(deployment.getSpec().getStrategy().getRollingUpdate().getMaxUnavailable())
        .as("a rollout starts a new pod before stopping an old one")
        .isEqualTo(new IntOrString(0));
    assertThat(deployment.getSpec().getStrategy().getRollingUpdate().getMaxSurge())
        .isEqualTo(new IntOrString(1));
    PodSpec pod = deployment.getSpec().getTemplate().getSpec();
    assertThat(pod.getTopologySpreadConstraints()).singleElement().satisfies(spread -> {
      assertThat(spread.getTopologyKey()).isEqualTo("kubernetes.io/hostname");
      assertThat(spread.getMaxSkew()).isEqualTo(1);
      assertThat(spread.getWhenUnsatisfiable()).as("still schedulable on one node")
          .isEqualTo("ScheduleAnyway");
      assertThat(spread.getLabelSelector().getMatchLabels()).as("counts the webhook's pods")
          .isEqualTo(deployment.getSpec().getSelector().getMatchLabels());
      assertThat(spread.getMatchLabelKeys()).as("of the current rollout only")
          .containsExactly("pod-template-hash");
    });
    assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
    assertThat(pod.getSecurityContext().getSeccompProfile().getType())
        .isEqualTo("RuntimeDefault");
    SecurityContext container = pod.getContainers().get(0).getSecurityContext();
    assertThat(container.getReadOnlyRootFilesystem()).isTrue();
    assertThat(container.getCapabilities().getDrop()).containsExactly("ALL");
    assertThat(container.getPrivileged()).isNotEqualTo(true);
  }

  @Test
  void theSpreadFollowsItsValues() {
    PodSpec zones = Helm.require().template(Helm.valuesFile("""
        webhook:
          enabled: true
          replicas: 3
          topologySpread:
            topologyKeys: [topology.kubernetes.io/zone, kubernetes.io/hostname]
            maxSkew: 2
            whenUnsatisfiable: DoNotSchedule
        """)).one(Deployment.class).getSpec().getTemplate().getSpec();
    assertThat(zones.getTopologySpreadConstraints()).extracting(
        TopologySpreadConstraint::getTopologyKey, TopologySpreadConstraint::getMaxSkew,
        TopologySpreadConstraint::getWhenUnsatisfiable).containsExactly(
            tuple("topology.kubernetes.io/zone", 2, "DoNotSchedule"),
            tuple("kubernetes.io/hostname", 2, "DoNotSchedule"));

    PodSpec none = Helm.require().template(Helm.valuesFile("""
        webhook:
          enabled: true
          topologySpread:
            topologyKeys: []
        """)).one(Deployment.class).getSpec().getTemplate().getSpec();
    assertThat(none.getTopologySpreadConstraints()).isNullOrEmpty();
  }

  @Test
  void webhookIsOffByDefault() {
    Rendered rendered = Helm.require().template();

    assertThat(rendered.all(Deployment.class)).as("webhook Deployment").isEmpty();
    assertThat(rendered.all(ValidatingWebhookConfiguration.class)).as("webhook registration")
        .isEmpty();
    assertThat(rendered.all(GenericKubernetesResource.class)).as("cert-manager objects")
        .isEmpty();
    assertThat(rendered.all(ServiceAccount.class)).as("only the plugin's account").hasSize(1);
  }

  @Test
  void defaultWebhookIsTheSdksRegistration() {
    Rendered rendered = Helm.require().template("--set", "webhook.enabled=true");

    String service = assertWebhookWiring(rendered, "gpu-dra4j-gpu-driver-webhook", 443, 8443);
    String certificate = rendered.generic("Certificate").getMetadata().getName();
    ValidatingWebhookConfiguration expected = WebhookRegistration.forDriver("gpu.example.com")
        .service(Helm.NAMESPACE, service)
        .injectCaFrom(Helm.NAMESPACE, certificate)
        .build();
    assertThat(withoutLabels(rendered.one(ValidatingWebhookConfiguration.class)))
        .as("the chart's ValidatingWebhookConfiguration (labels aside) against the SDK's")
        .isEqualTo(withoutLabels(expected));
    assertThat(expected.getWebhooks().get(0).getFailurePolicy()).isEqualTo("Fail");

    Container container = rendered.one(Deployment.class).getSpec().getTemplate().getSpec()
        .getContainers().get(0);
    assertThat(env(container)).containsEntry("DRIVER_NAME", "gpu.example.com")
        .containsEntry("LOG_LEVEL", "info").containsEntry("LOG_FORMAT", "text")
        .containsEntry("WEBHOOK_PORT", "8443")
        .containsEntry("JAVA_TOOL_OPTIONS", (String) ChartFiles.value("webhook.jvmOptions"));
  }

  @Test
  void customWebhookIsTheSdksRegistrationWithTheSameOptions() {
    Rendered rendered = Helm.require().templateIn("gpu-drivers",
        "--set", "webhook.enabled=true",
        "--set", "driverName=gpu.acme.io",
        "--set", "fullnameOverride=acme",
        "--set", "logging.level=debug", "--set", "logging.format=json",
        "--set", "webhook.failurePolicy=Ignore",
        "--set", "webhook.timeoutSeconds=5",
        "--set", "webhook.servicePort=9443",
        "--set", "webhook.port=10443",
        "--set", "webhook.replicas=3");

    String service = assertWebhookWiring(rendered, "acme-webhook", 9443, 10443);
    String certificate = rendered.generic("Certificate").getMetadata().getName();
    ValidatingWebhookConfiguration expected = WebhookRegistration.forDriver("gpu.acme.io")
        .service("gpu-drivers", service)
        .servicePort(9443)
        .failurePolicy("Ignore")
        .timeoutSeconds(5)
        .injectCaFrom("gpu-drivers", certificate)
        .build();
    assertThat(withoutLabels(rendered.one(ValidatingWebhookConfiguration.class)))
        .as("the chart's ValidatingWebhookConfiguration (labels aside) against the SDK's")
        .isEqualTo(withoutLabels(expected));
    Deployment deployment = rendered.one(Deployment.class);
    assertThat(deployment.getSpec().getReplicas()).isEqualTo(3);
    assertThat(env(deployment.getSpec().getTemplate().getSpec().getContainers().get(0)))
        .containsEntry("DRIVER_NAME", "gpu.acme.io").containsEntry("WEBHOOK_PORT", "10443")
        .containsEntry("LOG_LEVEL", "debug").containsEntry("LOG_FORMAT", "json");
  }

  /**
   * Checks the webhook's objects fit together and returns the Service's name.
   */
  private static String assertWebhookWiring(Rendered rendered, String name, int servicePort,
      int containerPort) {
    Deployment deployment = rendered.named(Deployment.class, name);
    String namespace = deployment.getMetadata().getNamespace();
    PodSpec pod = deployment.getSpec().getTemplate().getSpec();
    assertThat(pod.getContainers()).hasSize(1);
    Container container = pod.getContainers().get(0);
    assertThat(container.getArgs()).containsExactly("webhook");
    assertThat(container.getImage()).isEqualTo(rendered.one(DaemonSet.class).getSpec()
        .getTemplate().getSpec().getContainers().get(0).getImage());
    assertThat(container.getSecurityContext().getPrivileged()).as("not privileged")
        .isNotEqualTo(true);
    assertThat(container.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
    assertThat(container.getSecurityContext().getRunAsNonRoot()).isTrue();

    List<ServicePort> ports = rendered.named(Service.class, name).getSpec().getPorts();
    assertThat(ports).extracting(ServicePort::getName).containsExactly("https", "metrics");
    assertThat(ports.get(0).getPort()).as("Service port").isEqualTo(servicePort);
    assertThat(ports.get(0).getTargetPort()).isEqualTo(new IntOrString("https"));
    assertThat(container.getPorts()).filteredOn(p -> "https".equals(p.getName()))
        .singleElement().satisfies(p -> assertThat(p.getContainerPort())
            .as("container port behind the Service").isEqualTo(containerPort));
    assertThat(deployment.getSpec().getTemplate().getMetadata().getLabels())
        .as("the Service selects the webhook's pods")
        .containsAllEntriesOf(rendered.named(Service.class, name).getSpec().getSelector())
        .containsAllEntriesOf(deployment.getSpec().getSelector().getMatchLabels());
    assertThat(rendered.one(DaemonSet.class).getSpec().getTemplate().getMetadata().getLabels())
        .as("the webhook's Service does not select the plugin's pods")
        .doesNotContainEntry("app.kubernetes.io/component", "webhook");

    Probe readiness = container.getReadinessProbe();
    assertThat(readiness.getHttpGet().getPath()).isEqualTo("/readyz");
    assertThat(readiness.getHttpGet().getScheme()).isEqualTo("HTTPS");
    assertThat(readiness.getHttpGet().getPort()).isEqualTo(new IntOrString("https"));
    // Liveness on the server's own event loop: a webhook whose port stopped
    // accepting is restarted instead of failing every claim in the cluster.
    Probe liveness = container.getLivenessProbe();
    assertThat(liveness).as("livenessProbe").isNotNull();
    assertThat(liveness.getHttpGet().getPath())
        .isEqualTo(io.github.dra4j.webhook.AdmissionWebhookServerBuilder.LIVE_PATH);
    assertThat(liveness.getHttpGet().getScheme()).isEqualTo("HTTPS");
    assertThat(liveness.getHttpGet().getPort()).isEqualTo(new IntOrString("https"));
    assertThat(liveness.getPeriodSeconds()).isEqualTo(10);
    assertThat(liveness.getFailureThreshold()).isEqualTo(6);
    assertThat(liveness.getTimeoutSeconds()).isEqualTo(5);
    assertThat(liveness.getInitialDelaySeconds()).isEqualTo(10);

    Map<String, String> env = env(container);
    assertThat(env).containsKeys("DRIVER_NAME", "TLS_CERT_FILE", "TLS_PRIVATE_KEY_FILE",
        "WEBHOOK_PORT", "JAVA_TOOL_OPTIONS");
    VolumeMount tls = container.getVolumeMounts().stream()
        .filter(m -> env.get("TLS_CERT_FILE").startsWith(m.getMountPath() + "/"))
        .findFirst().orElseThrow(() -> new AssertionError("no mount holds TLS_CERT_FILE "
            + env.get("TLS_CERT_FILE") + ": " + container.getVolumeMounts()));
    assertThat(env.get("TLS_CERT_FILE")).isEqualTo(tls.getMountPath() + "/tls.crt");
    assertThat(env.get("TLS_PRIVATE_KEY_FILE")).isEqualTo(tls.getMountPath() + "/tls.key");
    assertThat(tls.getReadOnly()).isTrue();
    Volume tlsVolume = pod.getVolumes().stream().filter(v -> v.getName().equals(tls.getName()))
        .findFirst().orElseThrow();

    GenericKubernetesResource certificate = rendered.generic("Certificate");
    GenericKubernetesResource issuer = rendered.generic("Issuer");
    assertThat(certificate.getApiVersion()).isEqualTo("cert-manager.io/v1");
    assertThat(certificate.getMetadata().getNamespace()).isEqualTo(namespace);
    Map<String, Object> spec = spec(certificate);
    assertThat(spec.get("dnsNames")).as("certificate DNS names").isEqualTo(List.of(
        name + "." + namespace + ".svc", name + "." + namespace + ".svc.cluster.local"));
    assertThat(spec.get("secretName")).as("the certificate's Secret is the mounted one")
        .isEqualTo(tlsVolume.getSecret().getSecretName());
    assertThat(spec.get("issuerRef")).isEqualTo(
        Map.of("kind", "Issuer", "name", issuer.getMetadata().getName()));
    assertThat(issuer.getApiVersion()).isEqualTo("cert-manager.io/v1");
    assertThat(issuer.getMetadata().getNamespace()).isEqualTo(namespace);
    assertThat(spec(issuer)).as("self-signed Issuer").containsOnlyKeys("selfSigned");

    String account = pod.getServiceAccountName();
    assertThat(pod.getAutomountServiceAccountToken()).as("no API token in the webhook's pod")
        .isFalse();
    assertThat(rendered.named(ServiceAccount.class, account).getAutomountServiceAccountToken())
        .isFalse();
    assertThat(rendered.all(ClusterRoleBinding.class))
        .flatExtracting(ClusterRoleBinding::getSubjects)
        .as("no role is bound to the webhook's account")
        .noneMatch(s -> account.equals(s.getName()));
    assertThat(rendered.all(RoleBinding.class)).flatExtracting(RoleBinding::getSubjects)
        .as("no Role is bound to the webhook's account")
        .noneMatch(s -> account.equals(s.getName()));
    return name;
  }

  /** The configuration with its labels removed: the chart labels what it installs. */
  private static ValidatingWebhookConfiguration withoutLabels(
      ValidatingWebhookConfiguration configuration) {
    return new ValidatingWebhookConfigurationBuilder(configuration)
        .editMetadata().withLabels(Map.of()).endMetadata().build();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> spec(GenericKubernetesResource resource) {
    Object spec = resource.getAdditionalProperties().get("spec");
    assertThat(spec).as("%s spec", resource.getKind()).isInstanceOf(Map.class);
    return (Map<String, Object>) spec;
  }

  private static Map<String, String> env(Container container) {
    Map<String, String> env = new LinkedHashMap<>();
    for (EnvVar var : container.getEnv()) {
      assertThat(env.put(var.getName(), var.getValue())).as("env %s set twice", var.getName())
          .isNull();
    }
    return env;
  }
}
