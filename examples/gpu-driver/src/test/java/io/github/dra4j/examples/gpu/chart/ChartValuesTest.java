package io.github.dra4j.examples.gpu.chart;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The chart as a whole: {@code helm lint --strict} passes on default and non-default values,
 * values.schema.json refuses bad values naming the field, the chart refuses the default namespace,
 * and every object is labelled and placed in the release namespace.
 */
class ChartValuesTest {

  /** Everything away from its default at once. */
  static final String EVERYTHING_ON = """
      fullnameOverride: acme-gpu
      driverName: gpu.acme.io
      commonLabels:
        team: platform
      deviceClasses:
        gpu:
          extendedResourceName: acme.io/gpu
      kubeletPlugin:
        serviceAccount:
          name: acme-plugin
        backend: nvml
        nvidiaDriverRoot: /run/nvidia/driver
        partitions: 2
        allowMultipleAllocations: true
        deviceStatus: true
        healthcheckBindAddress: ""
        metrics:
          enabled: false
        kubeApiQps: 10
        kubeApiBurst: 20
        podAnnotations:
          example.com/note: plugin
        podLabels:
          example.com/tier: node
        gpuNodes:
          nodeSelectorTerms: []
          tolerations: []
        securityContext:
          privileged: false
          runAsUser: 0
          capabilities:
            add: [SYS_ADMIN]
        podSecurityContext:
          seccompProfile:
            type: RuntimeDefault
        updateStrategy:
          rollingUpdate:
            maxSurge: 0
            maxUnavailable: "10%"
      networkPolicy:
        metricsFrom: []
        extraIngress:
          - from:
              - ipBlock:
                  cidr: 10.0.0.0/8
      webhook:
        enabled: true
        failurePolicy: Ignore
        replicas: 3
        topologySpread:
          topologyKeys: [topology.kubernetes.io/zone, kubernetes.io/hostname]
          whenUnsatisfiable: DoNotSchedule
        podDisruptionBudget:
          minAvailable: 1
        tls:
          issuerRef:
            name: acme-ca
            kind: ClusterIssuer
        serviceAccount:
          name: acme-webhook-account
        podAnnotations:
          example.com/note: webhook
      monitoring:
        prometheusRule:
          enabled: true
          labels:
            role: alert-rules
          disabledAlerts: [Dra4jGpuClaimPrepareSlow]
          slowPrepareSeconds: 20
      """;

  private static final Set<String> CLUSTER_SCOPED = Set.of("ClusterRole", "ClusterRoleBinding",
      "DeviceClass", "ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding",
      "ValidatingWebhookConfiguration");

  @Test
  void lintPassesOnDefaultValues() {
    assertLintPasses(Helm.require().lint(Helm.NAMESPACE));
  }

  @Test
  void lintPassesWithEverythingAwayFromItsDefault() {
    assertLintPasses(Helm.require().lint(Helm.NAMESPACE, Helm.valuesFile(EVERYTHING_ON)));
  }

  @Test
  void everyObjectIsLabelledAndInTheReleaseNamespace() {
    Rendered defaults = Helm.require().templateIn("gpu-drivers");
    Rendered custom = Helm.require().templateIn("gpu-drivers", Helm.valuesFile(EVERYTHING_ON));

    assertThat(defaults.kinds()).as("kinds rendered by default").containsExactlyInAnyOrder(
        "ClusterRole", "ClusterRoleBinding", "DaemonSet", "DeviceClass", "NetworkPolicy",
        "Role", "RoleBinding", "Service", "ServiceAccount", "ValidatingAdmissionPolicy",
        "ValidatingAdmissionPolicyBinding");
    assertThat(custom.kinds()).as("kinds rendered with everything on").containsExactlyInAnyOrder(
        "Certificate", "ClusterRole", "ClusterRoleBinding", "DaemonSet", "Deployment",
        "DeviceClass", "NetworkPolicy", "PodDisruptionBudget", "PrometheusRule", "Role",
        "RoleBinding", "Service",
        "ServiceAccount", "ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding",
        "ValidatingWebhookConfiguration");
    for (Rendered rendered : List.of(defaults, custom)) {
      for (HasMetadata object : rendered.objects()) {
        String what = object.getKind() + "/" + object.getMetadata().getName() + " from "
            + rendered.source(object);
        assertThat(object.getMetadata().getLabels()).as("labels of %s", what)
            .containsEntry("app.kubernetes.io/managed-by", "Helm")
            .containsEntry("app.kubernetes.io/instance", Helm.RELEASE)
            .containsEntry("app.kubernetes.io/name", "dra4j-gpu-driver")
            .containsKey("helm.sh/chart");
        if (CLUSTER_SCOPED.contains(object.getKind())) {
          assertThat(object.getMetadata().getNamespace()).as("namespace of cluster-scoped %s",
              what).isNull();
        } else if (object.getKind().startsWith("Role")) {
          // The one exception: creating Events about the Node, which live in default.
          assertThat(object.getMetadata().getName()).endsWith("-events");
          assertThat(object.getMetadata().getNamespace()).as("namespace of %s", what)
              .isEqualTo("default");
        } else {
          assertThat(object.getMetadata().getNamespace()).as("namespace of %s", what)
              .isEqualTo("gpu-drivers");
        }
        if (object.getKind().equals("Service") || object.getKind().equals("DaemonSet")
            || object.getKind().equals("Deployment")) {
          assertThat(object.getMetadata().getName().length()).as("name length of %s", what)
              .isLessThanOrEqualTo(63);
        }
      }
    }
    assertThat(custom.objects()).allSatisfy(o -> assertThat(o.getMetadata().getLabels())
        .as("commonLabels on %s/%s", o.getKind(), o.getMetadata().getName())
        .containsEntry("team", "platform"));
  }

  @Test
  void defaultNamespaceIsRefusedUnlessAllowed() {
    Helm helm = Helm.require();
    Helm.Result refused = helm.templateResult("default");
    assertThat(refused.exitCode()).as("install into default refused:\n%s", refused.describe())
        .isNotZero();
    assertThat(refused.stderr()).as(refused.describe())
        .contains("refusing to install dra4j-gpu-driver into the \"default\" namespace")
        .contains("allowDefaultNamespace=true");
    // helm lint turns a template's fail into a log line by design; template and install refuse.

    Rendered allowed = helm.templateIn("default", "--set", "allowDefaultNamespace=true");
    assertThat(allowed.objects()).filteredOn(o -> !CLUSTER_SCOPED.contains(o.getKind()))
        .isNotEmpty()
        .allSatisfy(o -> assertThat(o.getMetadata().getNamespace()).isEqualTo("default"));
  }

  @ParameterizedTest(name = "{0} refused at {1}")
  @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
      kubeletPlugin.backend=cuda               | /kubeletPlugin/backend        | 'simulated', 'nvml'
      kubeletPlugin.numDevices=eight           | /kubeletPlugin/numDevices     | want integer
      kubeletPlugin.partitions=-1              | /kubeletPlugin/partitions     | minimum
      kubeletPlugin.healthcheckPort=70000      | /kubeletPlugin/healthcheckPort | maximum
      kubeletPlugin.metrics.port=0             | /kubeletPlugin/metrics/port   | minimum
      kubeletPlugin.deviceStatus=yes           | /kubeletPlugin/deviceStatus   | want boolean
      kubeletPlugin.cdiRoot=var/run/cdi        | /kubeletPlugin/cdiRoot        | does not match pattern
      kubeletPlugin.cdi.driverCapabilities=compute\\,display | /kubeletPlugin/cdi/driverCapabilities | does not match pattern
      kubeletPlugin.cdi.hookPath=bin/nvidia-cdi-hook | /kubeletPlugin/cdi/hookPath | does not match pattern
      kubeletPlugin.cdi.disabledHooks=chmod    | /kubeletPlugin/cdi/disabledHooks | does not match pattern
      kubeletPlugin.mps.startTimeoutSeconds=0  | /kubeletPlugin/mps/startTimeoutSeconds | minimum
      kubeletPlugin.mps.stopTimeoutSeconds=301 | /kubeletPlugin/mps/stopTimeoutSeconds | maximum
      kubeletPlugin.backnd=nvml                | /kubeletPlugin                | 'backnd' not allowed
      kubeletPlugin.updateStrategy.type=Always | /kubeletPlugin/updateStrategy/type | 'RollingUpdate', 'OnDelete'
      kubeletPlugin.healthcheckBindAddress=node-1 | /kubeletPlugin/healthcheckBindAddress | does not match pattern
      networkPolicy.enabled=yes                | /networkPolicy/enabled        | want boolean
      networkPolicy.metricsFrom=monitoring     | /networkPolicy/metricsFrom    | want array
      networkPolicy.ingress=[]                 | /networkPolicy                | 'ingress' not allowed
      webhook.failurePolicy=Never              | /webhook/failurePolicy        | 'Fail', 'Ignore'
      webhook.timeoutSeconds=31                | /webhook/timeoutSeconds       | maximum
      driverName=GPU_Example                   | /driverName                   | does not match pattern
      fullnameOverride=a-name-that-is-longer-than-forty-characters | /fullnameOverride | maxLength
      kubeletPlugin.resources.limits.memory=192MB | /kubeletPlugin/resources/limits/memory | '192MB' does not match pattern
      kubeletPlugin.resources.requests.cpu=-1  | /kubeletPlugin/resources/requests/cpu | minimum: got -1, want 0
      webhook.resources.limits.memory=lots     | /webhook/resources/limits/memory | 'lots' does not match pattern
      kubeletPlugin.updateStrategy.rollingUpdate.maxSurge=150% | /kubeletPlugin/updateStrategy/rollingUpdate/maxSurge | '150%' does not match pattern
      kubeletPlugin.updateStrategy.rollingUpdate.maxUnavailable=-1 | /kubeletPlugin/updateStrategy/rollingUpdate/maxUnavailable | minimum
      kubeletPlugin.securityContext.privilegd=true | /kubeletPlugin/securityContext | 'privilegd' not allowed
      kubeletPlugin.securityContext.privileged=yes | /kubeletPlugin/securityContext/privileged | want boolean
      kubeletPlugin.podSecurityContext.fsGroup=-1 | /kubeletPlugin/podSecurityContext/fsGroup | minimum
      kubeletPlugin.tolerations[0].operator=Contains | /kubeletPlugin/tolerations/0/operator | 'Exists', 'Equal'
      kubeletPlugin.gpuNodes.tolerations[0].effect=NoRun | /kubeletPlugin/gpuNodes/tolerations/0/effect | 'NoSchedule'
      kubeletPlugin.gpuNodes.nodeSelectorTerms=gpu | /kubeletPlugin/gpuNodes/nodeSelectorTerms | want array
      webhook.tls.source=vault                 | /webhook/tls/source           | 'certManager', 'secret'
      webhook.tls.issuerRef.kind=Vault         | /webhook/tls/issuerRef/kind   | 'Issuer', 'ClusterIssuer'
      webhook.tls.secretName=My_Secret         | /webhook/tls/secretName       | does not match pattern
      webhook.podSecurityContext.runAsUser=-5  | /webhook/podSecurityContext/runAsUser | minimum
      webhook.securityContext.readOnlyRootFilesystm=true | /webhook/securityContext | 'readOnlyRootFilesystm' not allowed
      webhook.podDisruptionBudget.minAvailable=120% | /webhook/podDisruptionBudget/minAvailable | does not match pattern
      webhook.topologySpread.whenUnsatisfiable=Never | /webhook/topologySpread/whenUnsatisfiable | 'ScheduleAnyway', 'DoNotSchedule'
      webhook.topologySpread.maxSkew=0         | /webhook/topologySpread/maxSkew | minimum
      monitoring.serviceMonitor.interval=thirty | /monitoring/serviceMonitor/interval | 'thirty' does not match pattern
      monitoring.prometheusRule.disabledAlerts={Dra4jGpuTypo} | /monitoring/prometheusRule/disabledAlerts/0 | value must be one of
      monitoring.prometheusRule.slowPrepareSeconds=60 | /monitoring/prometheusRule/slowPrepareSeconds | maximum: got 60, want 45
      logging.format=yaml                      | /logging/format               | 'text', 'json'
      logging.level=verbose                    | /logging/level                | oneOf
      logging.level=11                         | /logging/level                | oneOf
      logging.colour=true                      | /logging                      | 'colour' not allowed
      """)
  void schemaRefusesBadValuesNamingTheField(String set, String path, String reason) {
    Helm helm = Helm.require();
    for (Helm.Result result : List.of(helm.templateResult(Helm.NAMESPACE, "--set", set),
        helm.lint(Helm.NAMESPACE, "--set", set))) {
      assertThat(result.exitCode()).as("%s refused:\n%s", set, result.describe()).isNotZero();
      assertThat(result.stdout() + result.stderr()).as("%s: message names the field:\n%s", set,
          result.describe())
          .contains("values don't meet the specifications of the schema")
          .contains("at '" + path + "'")
          .contains(reason);
    }
  }

  private static void assertLintPasses(Helm.Result result) {
    assertThat(result.exitCode()).as("helm lint:\n%s", result.describe()).isZero();
    assertThat(result.stdout()).as("helm lint:\n%s", result.describe())
        .contains("1 chart(s) linted, 0 chart(s) failed")
        .doesNotContain("[WARNING]")
        .doesNotContain("[ERROR]");
  }
}
