package io.github.dra4j.examples.gpu.chart;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * Where the kubelet plugin's DaemonSet runs and with which privileges: with the nvml backend only
 * on nodes labelled as having an NVIDIA GPU (by Node Feature Discovery or the GPU Operator),
 * tolerating the GPU nodes' {@code nvidia.com/gpu} taint, both replaceable; with the simulated
 * backend on every node. The pod's node affinity and tolerations are checked the way the scheduler
 * reads them, against nodes with and without the labels and taints.
 */
class KubeletPluginPlacementChartTest {

  private static final Map<String, String> CPU_NODE = Map.of(
      "kubernetes.io/hostname", "cpu-1", "kubernetes.io/arch", "amd64");
  private static final Taint GPU_TAINT = new Taint("NoSchedule", "nvidia.com/gpu", null, "present");

  private static PodSpec pod(Rendered rendered) {
    return rendered.one(DaemonSet.class).getSpec().getTemplate().getSpec();
  }

  @Test
  void withNvmlThePluginRunsOnlyOnGpuNodesAndToleratesTheirTaint() {
    PodSpec pod = pod(Helm.require().template("--set", "kubeletPlugin.backend=nvml"));

    assertThat(selects(pod, Map.of("feature.node.kubernetes.io/pci-10de.present", "true")))
        .as("a node Node Feature Discovery labelled with an NVIDIA PCI device").isTrue();
    assertThat(selects(pod, Map.of("feature.node.kubernetes.io/pci-0302_10de.present", "true")))
        .as("a node NFD labelled with an NVIDIA 3D controller").isTrue();
    assertThat(selects(pod, Map.of("nvidia.com/gpu.present", "true")))
        .as("a node the GPU Operator labelled").isTrue();
    assertThat(selects(pod, CPU_NODE)).as("a node without a GPU label").isFalse();
    assertThat(selects(pod, Map.of("nvidia.com/gpu.present", "false")))
        .as("a node labelled as having no GPU").isFalse();

    assertThat(tolerates(pod, GPU_TAINT)).as("the GPU nodes' NoSchedule taint").isTrue();
    assertThat(tolerates(pod, new Taint("NoSchedule", "nvidia.com/gpu", null, null)))
        .as("the taint without a value").isTrue();
    assertThat(tolerates(pod, new Taint("NoExecute", "nvidia.com/gpu", null, "present")))
        .as("a NoExecute GPU taint is not tolerated by default").isFalse();
    assertThat(tolerates(pod, new Taint("NoSchedule", "dedicated", null, "ml")))
        .as("another taint").isFalse();

    List<NodeSelectorTerm> terms = pod.getAffinity().getNodeAffinity()
        .getRequiredDuringSchedulingIgnoredDuringExecution().getNodeSelectorTerms();
    assertThat(Serialization.asYaml(terms)).as("the node affinity is values.yaml's")
        .isEqualTo(
            Serialization.asYaml(ChartFiles.value("kubeletPlugin.gpuNodes.nodeSelectorTerms")));
    assertThat(pod.getAffinity().getNodeAffinity()
        .getPreferredDuringSchedulingIgnoredDuringExecution()).isNullOrEmpty();
  }

  @Test
  void theSimulatedBackendRunsOnEveryNode() {
    PodSpec pod = pod(Helm.require().template());

    assertThat(pod.getAffinity()).as("no affinity with the simulated backend").isNull();
    assertThat(pod.getTolerations()).as("no tolerations with the simulated backend")
        .isNullOrEmpty();
    assertThat(selects(pod, CPU_NODE)).isTrue();
  }

  @Test
  void theGpuNodeRulesCanBeReplacedOrTurnedOff() {
    String ownLabel = """
        kubeletPlugin:
          backend: nvml
          gpuNodes:
            nodeSelectorTerms:
              - matchExpressions:
                  - key: acme.io/accelerator
                    operator: Exists
            tolerations:
              - key: acme.io/gpu-pool
                operator: Equal
                value: "true"
                effect: NoSchedule
        """;
    PodSpec own = pod(Helm.require().template(Helm.valuesFile(ownLabel)));
    assertThat(selects(own, Map.of("acme.io/accelerator", "h100"))).isTrue();
    assertThat(selects(own, Map.of("nvidia.com/gpu.present", "true")))
        .as("a list value replaces the default list").isFalse();
    assertThat(tolerates(own, new Taint("NoSchedule", "acme.io/gpu-pool", null, "true"))).isTrue();
    assertThat(tolerates(own, GPU_TAINT)).as("the default toleration is replaced").isFalse();

    PodSpec off = pod(Helm.require().template(Helm.valuesFile("""
        kubeletPlugin:
          backend: nvml
          gpuNodes:
            nodeSelectorTerms: []
            tolerations: []
        """)));
    assertThat(off.getAffinity()).as("no GPU node affinity once turned off").isNull();
    assertThat(off.getTolerations()).isNullOrEmpty();
  }

  @Test
  void aNodeAffinityOfTheUserReplacesTheGpuOneWhileOtherAffinityIsKept() {
    String podAffinityOnly = """
        kubeletPlugin:
          backend: nvml
          tolerations:
            - key: dedicated
              operator: Exists
          affinity:
            podAntiAffinity:
              preferredDuringSchedulingIgnoredDuringExecution:
                - weight: 10
                  podAffinityTerm:
                    topologyKey: kubernetes.io/hostname
                    labelSelector:
                      matchLabels:
                        app: noisy
        """;
    PodSpec pod = pod(Helm.require().template(Helm.valuesFile(podAffinityOnly)));
    Affinity affinity = pod.getAffinity();
    assertThat(affinity.getPodAntiAffinity()).as("the user's pod anti-affinity").isNotNull();
    assertThat(selects(pod, Map.of("nvidia.com/gpu.present", "true"))).isTrue();
    assertThat(selects(pod, CPU_NODE)).as("the GPU node affinity is still added").isFalse();
    assertThat(pod.getTolerations()).as("the GPU nodes' toleration, then the user's")
        .extracting(Toleration::getKey).containsExactly("nvidia.com/gpu", "dedicated");

    PodSpec replaced = pod(Helm.require().template("--set", "kubeletPlugin.backend=nvml",
        "--set",
        "kubeletPlugin.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution"
            + ".nodeSelectorTerms[0].matchExpressions[0].key=gpu",
        "--set",
        "kubeletPlugin.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution"
            + ".nodeSelectorTerms[0].matchExpressions[0].operator=Exists"));
    assertThat(selects(replaced, Map.of("gpu", ""))).isTrue();
    assertThat(selects(replaced, Map.of("nvidia.com/gpu.present", "true")))
        .as("the user's node affinity alone").isFalse();
  }

  @Test
  void thePluginIsPrivilegedByDefaultAndItsSecurityContextsAreValues() {
    for (String backend : List.of("simulated", "nvml")) {
      PodSpec pod = pod(Helm.require().template("--set", "kubeletPlugin.backend=" + backend));
      SecurityContext context = pod.getContainers().get(0).getSecurityContext();
      assertThat(context.getPrivileged()).as("privileged by default (%s)", backend).isTrue();
      assertThat(context.getRunAsUser()).as("root, over the image's user (%s)", backend).isZero();
      assertThat(pod.getSecurityContext()).as("no pod securityContext by default").isNull();
    }

    String values = """
        kubeletPlugin:
          securityContext:
            privileged: false
            runAsUser: 0
            readOnlyRootFilesystem: true
            capabilities:
              drop: [ALL]
          podSecurityContext:
            seccompProfile:
              type: RuntimeDefault
        """;
    PodSpec pod = pod(Helm.require().template(Helm.valuesFile(values)));
    SecurityContext context = pod.getContainers().get(0).getSecurityContext();
    assertThat(context.getPrivileged()).as("privileged set to false over the default").isFalse();
    assertThat(context.getRunAsUser()).isZero();
    assertThat(context.getReadOnlyRootFilesystem()).isTrue();
    assertThat(context.getCapabilities().getDrop()).containsExactly("ALL");
    assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
  }

  /** Whether the pod's required node affinity admits a node with these labels. */
  private static boolean selects(PodSpec pod, Map<String, String> labels) {
    if (pod.getAffinity() == null || pod.getAffinity().getNodeAffinity() == null
        || pod.getAffinity().getNodeAffinity()
            .getRequiredDuringSchedulingIgnoredDuringExecution() == null) {
      return true;
    }
    // Terms are ORed, the expressions of a term ANDed.
    return pod.getAffinity().getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution()
        .getNodeSelectorTerms().stream()
        .anyMatch(term -> term.getMatchExpressions().stream().allMatch(e -> matches(e, labels)));
  }

  private static boolean matches(NodeSelectorRequirement requirement, Map<String, String> labels) {
    String value = labels.get(requirement.getKey());
    return switch (requirement.getOperator()) {
      case "In" -> value != null && requirement.getValues().contains(value);
      case "NotIn" -> value == null || !requirement.getValues().contains(value);
      case "Exists" -> value != null;
      case "DoesNotExist" -> value == null;
      default -> throw new AssertionError("operator not modelled: " + requirement.getOperator());
    };
  }

  /** Whether one of the pod's tolerations tolerates the taint, as the scheduler decides. */
  private static boolean tolerates(PodSpec pod, Taint taint) {
    if (pod.getTolerations() == null) {
      return false;
    }
    return pod.getTolerations().stream().anyMatch(t -> {
      boolean effect = t.getEffect() == null || t.getEffect().isEmpty()
          || t.getEffect().equals(taint.getEffect());
      boolean key = t.getKey() == null || t.getKey().isEmpty() || t.getKey().equals(taint.getKey());
      boolean value = "Exists".equals(t.getOperator())
          || Objects.equals(t.getValue() == null ? "" : t.getValue(),
              taint.getValue() == null ? "" : taint.getValue());
      return effect && key && value;
    });
  }
}
