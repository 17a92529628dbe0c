package ${package}.chart;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicy;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBinding;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRule;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.github.dra4j.resourceapi.ResourceApiRules;
import ${package}.DeviceDriver;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The Helm chart as a real Helm renders it: the driver name everywhere it belongs, the kubelet
 * plugin's DaemonSet wired to its probes, ports and host directories, least-privilege RBAC, the
 * DeviceClass (one the API server accepts), the slice policy bound to the DaemonSet's own
 * account, the NetworkPolicy that keeps other pods off the plugin's ports, and the optional
 * webhook with its liveness probe.
 */
class ChartTest {

  private static final String DRIVER = DeviceDriver.DEFAULT_NAME;

  private static <T extends HasMetadata> List<T> all(List<HasMetadata> objects, Class<T> type) {
    return objects.stream().filter(type::isInstance).map(type::cast).toList();
  }

  private static <T extends HasMetadata> T one(List<HasMetadata> objects, Class<T> type) {
    List<T> found = all(objects, type);
    assertThat(found).as("one %s", type.getSimpleName()).hasSize(1);
    return found.get(0);
  }

  private static Map<String, EnvVar> env(Container container) {
    return container.getEnv().stream().collect(Collectors.toMap(EnvVar::getName, e -> e));
  }

  @Test
  void lintPassesStrictly() {
    Helm.Result lint = Helm.require().lint();

    assertThat(lint.exitCode()).as("%s%n%s", lint.stdout(), lint.stderr()).isZero();
  }

  @Test
  void theDaemonSetRunsTheKubeletPluginForTheDriverWithItsProbesAndHostDirectories() {
    List<HasMetadata> objects = Helm.require().template();

    DaemonSet daemonSet = one(objects, DaemonSet.class);
    Container plugin = daemonSet.getSpec().getTemplate().getSpec().getContainers().get(0);
    assertThat(plugin.getArgs()).containsExactly("kubelet-plugin");
    Map<String, EnvVar> env = env(plugin);
    assertThat(env.get("DRIVER_NAME").getValue()).isEqualTo(DRIVER);
    assertThat(env.get("NODE_NAME").getValueFrom().getFieldRef().getFieldPath())
        .isEqualTo("spec.nodeName");
    assertThat(env.get("POD_UID").getValueFrom().getFieldRef().getFieldPath())
        .isEqualTo("metadata.uid");
    assertThat(env.get("HEALTHCHECK_PORT").getValue()).isEqualTo("51515");
    assertThat(env.get("METRICS_PORT").getValue()).isEqualTo("8080");
    assertThat(plugin.getLivenessProbe().getGrpc().getPort()).isEqualTo(51515);
    assertThat(plugin.getLivenessProbe().getGrpc().getService())
        .as("the overall health, which KubeletPluginProcessIT asks for").isNull();
    assertThat(plugin.getStartupProbe().getGrpc()).isEqualTo(plugin.getLivenessProbe().getGrpc());
    assertThat(plugin.getReadinessProbe().getGrpc().getService())
        .as("not ready until the devices are published").isEqualTo("readiness");
    assertThat(env.get("HEALTHCHECK_ADDRESS").getValueFrom().getFieldRef().getFieldPath())
        .as("the health port listens on the pod's own address, where the probes connect")
        .isEqualTo("status.podIP");
    assertThat(env.get("JAVA_TOOL_OPTIONS").getValue()).contains("-XX:+ExitOnOutOfMemoryError");
    assertThat(daemonSet.getSpec().getTemplate().getSpec().getVolumes())
        .extracting(volume -> volume.getHostPath().getPath())
        .containsExactly("/var/lib/kubelet/plugins_registry", "/var/lib/kubelet/plugins",
            "/var/run/cdi");
    assertThat(daemonSet.getSpec().getTemplate().getSpec().getServiceAccountName())
        .isEqualTo(one(objects, ServiceAccount.class).getMetadata().getName());

    Container withoutMetrics = one(Helm.require().template("--set",
        "kubeletPlugin.metrics.enabled=false"), DaemonSet.class).getSpec().getTemplate()
        .getSpec().getContainers().get(0);
    assertThat(env(withoutMetrics).get("METRICS_PORT").getValue()).isEqualTo("-1");
  }

  @Test
  void theNetworkPolicyOpensOnlyTheMetricsPortToTheMonitoringNamespace() {
    List<HasMetadata> objects = Helm.require().template();

    DaemonSet daemonSet = one(objects, DaemonSet.class);
    NetworkPolicy policy = one(objects, NetworkPolicy.class);
    assertThat(policy.getSpec().getPodSelector().getMatchLabels())
        .isEqualTo(daemonSet.getSpec().getSelector().getMatchLabels());
    assertThat(policy.getSpec().getPolicyTypes()).containsExactly("Ingress");
    NetworkPolicyIngressRule rule = policy.getSpec().getIngress().get(0);
    assertThat(policy.getSpec().getIngress()).hasSize(1);
    assertThat(rule.getPorts()).singleElement().satisfies(port ->
        assertThat(port.getPort()).isEqualTo(new IntOrString(8080)));
    assertThat(rule.getFrom()).singleElement().satisfies(peer ->
        assertThat(peer.getNamespaceSelector().getMatchLabels())
            .containsExactly(Map.entry("kubernetes.io/metadata.name", "monitoring")));
    // The health port needs no rule: NetworkPolicy always lets the pod's own node (its kubelet's
    // probes) in, and nobody else.

    NetworkPolicy closed = one(Helm.require().template("--set",
        "kubeletPlugin.metrics.enabled=false"), NetworkPolicy.class);
    assertThat(closed.getSpec().getIngress()).isNotNull().isEmpty();
    assertThat(all(Helm.require().template("--set", "networkPolicy.enabled=false"),
        NetworkPolicy.class)).isEmpty();
  }

  @Test
  void thePluginsRoleIsTheSdksLeastPrivilegeRoleBoundToItsAccount() {
    List<HasMetadata> objects = Helm.require().template();

    ClusterRole role = one(objects, ClusterRole.class);
    assertThat(role.getRules()).extracting(rule -> rule.getResources() + " " + rule.getVerbs())
        .containsExactly("[resourceclaims] [get]",
            "[resourceslices] [list, watch, create, update, delete]", "[nodes] [get]");
    ClusterRoleBinding binding = one(objects, ClusterRoleBinding.class);
    assertThat(binding.getRoleRef().getName()).isEqualTo(role.getMetadata().getName());
    assertThat(binding.getSubjects()).singleElement().satisfies(subject -> {
      assertThat(subject.getName()).isEqualTo(one(objects, DaemonSet.class).getSpec()
          .getTemplate().getSpec().getServiceAccountName());
      assertThat(subject.getNamespace()).isEqualTo(Helm.NAMESPACE);
    });
    Role events = one(objects, Role.class);
    assertThat(events.getMetadata().getNamespace()).as("where Events about Nodes live")
        .isEqualTo("default");
    assertThat(events.getRules()).extracting(rule -> rule.getResources() + " " + rule.getVerbs())
        .containsExactly("[events] [create]");
    assertThat(one(objects, RoleBinding.class).getSubjects()).singleElement()
        .satisfies(subject -> assertThat(subject.getNamespace()).isEqualTo(Helm.NAMESPACE));
  }

  @Test
  void theDeviceClassSelectsTheDriversDevices() {
    DeviceClass deviceClass = one(Helm.require().template(), DeviceClass.class);

    assertThat(deviceClass.getMetadata().getName()).isEqualTo(DRIVER);
    assertThat(deviceClass.getSpec().getSelectors()).singleElement().satisfies(selector ->
        assertThat(selector.getCel().getExpression())
            .isEqualTo("device.driver == '" + DRIVER + "'"));
    // What a cluster's API server would refuse fails here, with its message.
    ResourceApiRules.kubernetes136().requireValid(deviceClass);
  }

  @Test
  void theSlicePolicyAppliesToTheDaemonSetsOwnAccount() {
    List<HasMetadata> objects = Helm.require().template("--set",
        "kubeletPlugin.serviceAccount.name=plugin-account");

    ValidatingAdmissionPolicy policy = one(objects, ValidatingAdmissionPolicy.class);
    assertThat(policy.getSpec().getMatchConditions()).singleElement().satisfies(condition ->
        assertThat(condition.getExpression()).isEqualTo("request.userInfo.username == "
            + "'system:serviceaccount:" + Helm.NAMESPACE + ":plugin-account'"));
    assertThat(one(objects, DaemonSet.class).getSpec().getTemplate().getSpec()
        .getServiceAccountName()).isEqualTo("plugin-account");
    assertThat(one(objects, ValidatingAdmissionPolicyBinding.class).getSpec().getPolicyName())
        .isEqualTo(policy.getMetadata().getName());
  }

  @Test
  void theWebhookIsOffByDefaultAndOnRegistersItsServiceForTheDriver() {
    assertThat(all(Helm.require().template(), Deployment.class)).isEmpty();

    List<HasMetadata> objects = Helm.require().template("--set", "webhook.enabled=true");

    Deployment deployment = one(objects, Deployment.class);
    Container webhook = deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
    assertThat(webhook.getArgs()).containsExactly("webhook");
    assertThat(env(webhook).get("DRIVER_NAME").getValue()).isEqualTo(DRIVER);
    assertThat(webhook.getLivenessProbe().getHttpGet().getPath())
        .as("answered by the server's own event loop").isEqualTo("/livez");
    assertThat(webhook.getLivenessProbe().getHttpGet().getScheme()).isEqualTo("HTTPS");
    assertThat(webhook.getReadinessProbe().getHttpGet().getPath())
        .as("503 from SIGTERM on").isEqualTo("/readyz");
    assertThat(env(webhook).get("METRICS_PORT").getValue()).isEqualTo("8080");
    assertThat(webhook.getPorts()).anySatisfy(port -> {
      assertThat(port.getName()).isEqualTo("metrics");
      assertThat(port.getContainerPort()).isEqualTo(8080);
    });
    assertThat(webhook.getLifecycle().getPreStop().getSleep().getSeconds())
        .as("the Service drops the pod before SIGTERM").isEqualTo(5);
    Service service = one(objects, Service.class);
    ValidatingWebhookConfiguration registration =
        one(objects, ValidatingWebhookConfiguration.class);
    assertThat(registration.getMetadata().getName())
        .isEqualTo(DRIVER + "-resource-claim-parameters");
    ValidatingWebhook hook = registration.getWebhooks().get(0);
    assertThat(hook.getName()).isEqualTo("resource-claim-parameters." + DRIVER);
    assertThat(hook.getClientConfig().getService().getName())
        .isEqualTo(service.getMetadata().getName());
    assertThat(hook.getClientConfig().getService().getPath())
        .isEqualTo("/validate-resource-claim-parameters");
    GenericKubernetesResource certificate = all(objects, GenericKubernetesResource.class)
        .stream().filter(o -> o.getKind().equals("Certificate")).findFirst().orElseThrow();
    assertThat(registration.getMetadata().getAnnotations())
        .containsEntry("cert-manager.io/inject-ca-from",
            Helm.NAMESPACE + "/" + certificate.getMetadata().getName());
    assertThat(certificate.getAdditionalProperties().get("spec").toString())
        .contains(service.getMetadata().getName() + "." + Helm.NAMESPACE + ".svc");
  }

  @Test
  void theValuesSchemaRefusesAnInvalidDriverName() {
    Helm.Result result = Helm.require().templateResult("--set", "driverName=Not_A_Driver");

    assertThat(result.exitCode()).isNotZero();
    assertThat(result.stderr()).contains("driverName");
  }
}
