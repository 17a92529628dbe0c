package io.github.dra4j.examples.gpu.chart;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The kubelet plugin's RBAC is the role the dra4j README documents (which the SDK's RbacTest
 * checks against every request a plugin makes): equal with device status on, and without the
 * claim status writer's two rules with it off. The binding gives it to the DaemonSet's account.
 */
class KubeletPluginRbacChartTest {

  private static final Path README = Helm.CHART.resolve("../../../../../README.md").normalize();
  private static final Pattern YAML_BLOCK = Pattern.compile("(?s)```yaml\\n(.*?)```");
  private static final List<String> STATUS_WRITER_RESOURCES = List.of("resourceclaims/status",
      "resourceclaims/driver");

  @Test
  void defaultRoleIsTheReadmeRoleWithoutTheStatusWriter() throws IOException {
    Rendered rendered = Helm.require().template();

    List<PolicyRule> expected = readmeRules("gpu.example.com").stream()
        .filter(rule -> !STATUS_WRITER_RESOURCES.containsAll(rule.getResources()))
        .toList();
    assertThat(expected).as("README rules without the status writer's").hasSize(3);
    assertThat(rendered.one(ClusterRole.class).getRules())
        .as("ClusterRole rules with deviceStatus=false (README role minus %s)",
            STATUS_WRITER_RESOURCES)
        .containsExactlyInAnyOrderElementsOf(expected);
    assertBoundToThePluginAccount(rendered, "gpu-dra4j-gpu-driver-kubelet-plugin");
  }

  @Test
  void deviceStatusRoleIsExactlyTheReadmeRole() throws IOException {
    Rendered rendered = Helm.require().template("--set", "kubeletPlugin.deviceStatus=true");

    assertThat(rendered.one(ClusterRole.class).getRules())
        .as("ClusterRole rules with deviceStatus=true (the README role)")
        .containsExactlyInAnyOrderElementsOf(readmeRules("gpu.example.com"));
  }

  @Test
  void statusRuleNamesTheConfiguredDriver() throws IOException {
    Rendered rendered = Helm.require().template("--set", "kubeletPlugin.deviceStatus=true",
        "--set", "driverName=gpu.acme.io");

    List<PolicyRule> rules = rendered.one(ClusterRole.class).getRules();
    assertThat(rules).as("ClusterRole rules for driver gpu.acme.io")
        .containsExactlyInAnyOrderElementsOf(readmeRules("gpu.acme.io"));
    assertThat(rules).filteredOn(r -> r.getResources().contains("resourceclaims/driver"))
        .singleElement().extracting(PolicyRule::getResourceNames)
        .isEqualTo(List.of("gpu.acme.io"));
  }

  @Test
  void existingAccountIsBoundAndUsedWithoutBeingCreated() {
    Rendered rendered = Helm.require().template("--set",
        "kubeletPlugin.serviceAccount.create=false",
        "--set", "kubeletPlugin.serviceAccount.name=gpu-plugin-existing");

    assertThat(rendered.all(ServiceAccount.class)).as("no ServiceAccount created").isEmpty();
    DaemonSet daemonSet = rendered.one(DaemonSet.class);
    assertThat(daemonSet.getSpec().getTemplate().getSpec().getServiceAccountName())
        .isEqualTo("gpu-plugin-existing");
    ClusterRoleBinding binding = rendered.one(ClusterRoleBinding.class);
    assertThat(binding.getSubjects()).containsExactly(
        new Subject(null, "ServiceAccount", "gpu-plugin-existing", Helm.NAMESPACE));
  }

  @Test
  void existingAccountNeedsAName() {
    Helm.Result result = Helm.require().templateResult(Helm.NAMESPACE,
        "--set", "kubeletPlugin.serviceAccount.create=false");

    assertThat(result.exitCode()).as("helm template refuses:\n%s", result.describe())
        .isNotZero();
    assertThat(result.stderr()).as(result.describe()).contains(
        "kubeletPlugin.serviceAccount.name is required when kubeletPlugin.serviceAccount.create"
            + " is false");
  }

  @Test
  void renamedAccountIsCreatedBoundAndUsed() {
    Rendered rendered = Helm.require().templateIn("gpu-drivers",
        "--set", "kubeletPlugin.serviceAccount.name=gpu-plugin",
        "--set", "kubeletPlugin.serviceAccount.annotations.owner=platform");

    ServiceAccount account = assertBoundToThePluginAccount(rendered, "gpu-plugin");
    assertThat(account.getMetadata().getNamespace()).isEqualTo("gpu-drivers");
    assertThat(account.getMetadata().getAnnotations()).containsEntry("owner", "platform");
  }

  /**
   * The ClusterRoleBinding binds the chart's only ClusterRole to the DaemonSet's account, which
   * the chart creates in the release namespace; nothing else grants permissions.
   */
  private static ServiceAccount assertBoundToThePluginAccount(Rendered rendered, String account) {
    DaemonSet daemonSet = rendered.one(DaemonSet.class);
    String namespace = daemonSet.getMetadata().getNamespace();
    assertThat(daemonSet.getSpec().getTemplate().getSpec().getServiceAccountName())
        .as("DaemonSet's account").isEqualTo(account);
    ServiceAccount serviceAccount = rendered.named(ServiceAccount.class, account);
    assertThat(serviceAccount.getMetadata().getNamespace()).isEqualTo(namespace);

    ClusterRole role = rendered.one(ClusterRole.class);
    ClusterRoleBinding binding = rendered.one(ClusterRoleBinding.class);
    assertThat(binding.getRoleRef().getApiGroup()).isEqualTo("rbac.authorization.k8s.io");
    assertThat(binding.getRoleRef().getKind()).isEqualTo("ClusterRole");
    assertThat(binding.getRoleRef().getName()).as("binding's role")
        .isEqualTo(role.getMetadata().getName());
    assertThat(binding.getSubjects()).as("binding's subjects")
        .containsExactly(new Subject(null, "ServiceAccount", account, namespace));
    // Besides: Events about the Node, which live in namespace default (the README's Role).
    Role events = rendered.one(Role.class);
    assertThat(events.getMetadata().getNamespace()).isEqualTo("default");
    assertThat(events.getRules()).containsExactly(new PolicyRuleBuilder().withApiGroups("")
        .withResources("events").withVerbs("create").build());
    RoleBinding eventsBinding = rendered.one(RoleBinding.class);
    assertThat(eventsBinding.getMetadata().getNamespace()).isEqualTo("default");
    assertThat(eventsBinding.getRoleRef().getName()).isEqualTo(events.getMetadata().getName());
    assertThat(eventsBinding.getSubjects())
        .containsExactly(new Subject(null, "ServiceAccount", account, namespace));
    return serviceAccount;
  }

  /** The rules of the README's ClusterRole, with the driver rule's resourceNames set. */
  private static List<PolicyRule> readmeRules(String driverName) throws IOException {
    assertThat(README).as("the dra4j README").isRegularFile();
    Matcher blocks = YAML_BLOCK.matcher(Files.readString(README));
    List<String> roles = new ArrayList<>();
    while (blocks.find()) {
      if (blocks.group(1).contains("\nkind: ClusterRole\n")) {
        roles.add(blocks.group(1));
      }
    }
    assertThat(roles).as("one ClusterRole YAML block in %s", README).hasSize(1);
    ClusterRole role = Serialization.unmarshal(roles.get(0), ClusterRole.class);
    List<PolicyRule> rules = new ArrayList<>();
    for (PolicyRule rule : role.getRules()) {
      if (rule.getResources().contains("resourceclaims/driver")) {
        assertThat(rule.getResourceNames()).as("README's driver rule names the driver")
            .containsExactly("gpu.example.com");
        rule = new PolicyRuleBuilder(rule).withResourceNames(driverName).build();
      }
      rules.add(rule);
    }
    assertThat(rules).as("README role's rules").extracting(r -> r.getResources().get(0))
        .contains("resourceclaims", "resourceclaims/status", "resourceclaims/driver",
            "resourceslices", "nodes");
    return rules;
  }
}
