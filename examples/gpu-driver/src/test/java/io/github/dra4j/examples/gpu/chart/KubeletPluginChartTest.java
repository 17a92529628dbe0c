package io.github.dra4j.examples.gpu.chart;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The kubelet plugin's DaemonSet and metrics Service as the driver's contract wants them: the
 * {@code kubelet-plugin} subcommand, privileged and node-critical, every setting through its
 * environment variable, the kubelet's directories mounted at the same paths, gRPC probes on the
 * health port, surge updates, and the nvml backend's driver root.
 */
class KubeletPluginChartTest {

  private static final String REGISTRAR = "/var/lib/kubelet/plugins_registry";
  private static final String PLUGINS = "/var/lib/kubelet/plugins";

  @Test
  void defaultDaemonSetRunsTheSimulatedPluginOnEveryNode() {
    Rendered rendered = Helm.require().template();

    DaemonSet daemonSet = rendered.one(DaemonSet.class);
    assertThat(daemonSet.getMetadata().getName()).isEqualTo("gpu-dra4j-gpu-driver-kubelet-plugin");
    assertThat(daemonSet.getMetadata().getNamespace()).isEqualTo(Helm.NAMESPACE);
    assertThat(daemonSet.getSpec().getTemplate().getMetadata().getLabels())
        .as("pod labels hold the selector")
        .containsAllEntriesOf(daemonSet.getSpec().getSelector().getMatchLabels());
    assertThat(daemonSet.getSpec().getUpdateStrategy().getType()).isEqualTo("RollingUpdate");
    assertThat(daemonSet.getSpec().getUpdateStrategy().getRollingUpdate().getMaxSurge())
        .as("maxSurge: sockets are named by pod UID").isEqualTo(new IntOrString(1));
    assertThat(daemonSet.getSpec().getUpdateStrategy().getRollingUpdate().getMaxUnavailable())
        .as("maxUnavailable").isEqualTo(new IntOrString(0));

    PodSpec pod = daemonSet.getSpec().getTemplate().getSpec();
    assertThat(pod.getPriorityClassName()).isEqualTo("system-node-critical");
    assertThat(pod.getServiceAccountName()).isEqualTo("gpu-dra4j-gpu-driver-kubelet-plugin");
    assertThat(pod.getNodeSelector()).as("nodeSelector by default").isNullOrEmpty();
    assertThat(pod.getTolerations()).as("tolerations by default").isNullOrEmpty();
    assertThat(pod.getAffinity()).as("affinity by default").isNull();
    assertThat(pod.getContainers()).hasSize(1);
    Container container = pod.getContainers().get(0);
    assertThat(container.getImage())
        .isEqualTo("ghcr.io/dra4j/gpu-driver:" + ChartFiles.chart().get("appVersion"));
    assertThat(container.getCommand()).as("the image's ENTRYPOINT runs the jar").isNullOrEmpty();
    assertThat(container.getArgs()).containsExactly("kubelet-plugin");
    assertThat(container.getSecurityContext().getPrivileged()).as("privileged").isTrue();

    Map<String, String> env = new LinkedHashMap<>();
    env.put("NODE_NAME", "fieldRef:spec.nodeName");
    env.put("NAMESPACE", "fieldRef:metadata.namespace");
    env.put("POD_UID", "fieldRef:metadata.uid");
    env.put("DRIVER_NAME", "gpu.example.com");
    env.put("LOG_LEVEL", "info");
    env.put("LOG_FORMAT", "text");
    env.put("KUBELET_REGISTRAR_DIRECTORY_PATH", REGISTRAR);
    env.put("KUBELET_PLUGINS_DIRECTORY_PATH", PLUGINS);
    env.put("CDI_ROOT", "/var/run/cdi");
    env.put("HEALTHCHECK_PORT", "51515");
    env.put("HEALTHCHECK_ADDRESS", "fieldRef:status.podIP");
    env.put("METRICS_PORT", "8080");
    env.put("GPU_BACKEND", "simulated");
    env.put("NUM_DEVICES", "8");
    env.put("GPU_PARTITIONS", "0");
    env.put("GPU_ALLOW_MULTIPLE_ALLOCATIONS", "false");
    env.put("GPU_DEVICE_STATUS", "false");
    env.put("JAVA_TOOL_OPTIONS", (String) ChartFiles.value("kubeletPlugin.jvmOptions"));
    env.put("MALLOC_ARENA_MAX", "2");
    assertThat(env(container)).as("the plugin's environment").isEqualTo(env);

    assertGrpcProbe(container.getStartupProbe(), "startupProbe", 51515, 1, 120, 10);
    assertGrpcProbe(container.getLivenessProbe(), "livenessProbe", 51515, 10, 3, 10);
    Probe readiness = container.getReadinessProbe();
    assertThat(readiness).as("readinessProbe").isNotNull();
    assertThat(readiness.getGrpc().getPort()).isEqualTo(51515);
    // not ready until the devices are published, and while publishing fails
    assertThat(readiness.getGrpc().getService()).isEqualTo(KubeletPlugin.READINESS_SERVICE);
    assertThat(readiness.getPeriodSeconds()).isEqualTo(10);
    assertThat(readiness.getFailureThreshold()).isEqualTo(1);
    assertThat(port(container, "healthcheck")).hasValueSatisfying(
        p -> assertThat(p.getContainerPort()).isEqualTo(51515));
    assertThat(port(container, "metrics")).hasValueSatisfying(
        p -> assertThat(p.getContainerPort()).isEqualTo(8080));

    assertThat(container.getVolumeMounts()).as("mounts").hasSize(3);
    assertHostPathMount(pod, container, REGISTRAR, REGISTRAR);
    assertHostPathMount(pod, container, PLUGINS, PLUGINS);
    assertHostPathMount(pod, container, "/var/run/cdi", "/var/run/cdi");

    Map<String, Quantity> limits = container.getResources().getLimits();
    Map<String, Quantity> requests = container.getResources().getRequests();
    assertThat(limits).as("limits").containsKey("memory");
    assertThat(requests).as("requests").containsKeys("cpu", "memory");
    assertThat(Quantity.getAmountInBytes(requests.get("memory")))
        .as("memory request within the limit")
        .isLessThanOrEqualTo(Quantity.getAmountInBytes(limits.get("memory")));
    assertThat(limits.get("memory")).as("memory limit as in values.yaml").isEqualTo(
        new Quantity((String) ChartFiles.value("kubeletPlugin.resources.limits.memory")));

    Service metrics = rendered.named(Service.class, "gpu-dra4j-gpu-driver-kubelet-plugin-metrics");
    assertThat(metrics.getMetadata().getNamespace()).isEqualTo(Helm.NAMESPACE);
    assertThat(daemonSet.getSpec().getTemplate().getMetadata().getLabels())
        .as("the metrics Service selects the plugin's pods")
        .containsAllEntriesOf(metrics.getSpec().getSelector());
    assertThat(metrics.getSpec().getPorts()).hasSize(1);
    ServicePort servicePort = metrics.getSpec().getPorts().get(0);
    assertThat(servicePort.getPort()).isEqualTo(8080);
    assertThat(servicePort.getTargetPort()).as("targets the container's named port")
        .isEqualTo(new IntOrString("metrics"));
  }

  @Test
  void nvmlBackendAndEveryOtherSettingReachThePod() {
    String values = """
        fullnameOverride: acme-gpu
        driverName: gpu.acme.io
        logging:
          level: 4
          format: json
        image:
          repository: registry.acme.io/gpu-driver
          tag: "1.2.3"
          pullPolicy: Always
        imagePullSecrets:
          - name: acme-pull
        kubeletPlugin:
          backend: nvml
          nvidiaDriverRoot: /run/nvidia/driver
          additionalXidsToIgnore: "13,48"
          numDevices: 2
          partitions: 4
          allowMultipleAllocations: true
          deviceStatus: true
          healthFile: /health/gpus.json
          cdi:
            driverCapabilities: compute,utility,video
            hookPath: /usr/local/nvidia/toolkit/nvidia-cdi-hook
            disabledHooks: enable-cuda-compat
          mps:
            startTimeoutSeconds: 90
            stopTimeoutSeconds: 10
          cdiRoot: /etc/cdi
          healthcheckPort: 50505
          healthcheckBindAddress: 10.0.0.5
          metrics:
            enabled: false
          kubeApiQps: 20
          kubeApiBurst: 40
          jvmOptions: "-Xmx100m"
          extraEnv:
            - name: HTTPS_PROXY
              value: http://proxy.acme.io:3128
          extraVolumes:
            - name: health
              hostPath:
                path: /var/lib/acme-health
                type: DirectoryOrCreate
          extraVolumeMounts:
            - name: health
              mountPath: /health
          startupProbe:
            periodSeconds: 2
            failureThreshold: 60
            timeoutSeconds: 5
          updateStrategy:
            type: OnDelete
          runtimeClassName: nvidia
          resources:
            requests:
              cpu: 100m
              memory: 200Mi
            limits:
              memory: 300Mi
          nodeSelector:
            acme.io/gpu: "true"
          tolerations:
            - key: acme.io/dedicated
              operator: Equal
              value: gpu
              effect: NoSchedule
          affinity:
            nodeAffinity:
              requiredDuringSchedulingIgnoredDuringExecution:
                nodeSelectorTerms:
                  - matchExpressions:
                      - key: kubernetes.io/arch
                        operator: In
                        values: [amd64]
        """;
    Rendered rendered = Helm.require().template(Helm.valuesFile(values));

    DaemonSet daemonSet = rendered.one(DaemonSet.class);
    assertThat(daemonSet.getMetadata().getName()).isEqualTo("acme-gpu-kubelet-plugin");
    assertThat(daemonSet.getSpec().getUpdateStrategy().getType()).isEqualTo("OnDelete");
    assertThat(daemonSet.getSpec().getUpdateStrategy().getRollingUpdate())
        .as("no rollingUpdate settings with OnDelete").isNull();
    PodSpec pod = daemonSet.getSpec().getTemplate().getSpec();
    assertThat(pod.getServiceAccountName()).isEqualTo("acme-gpu-kubelet-plugin");
    assertThat(pod.getRuntimeClassName()).isEqualTo("nvidia");
    assertThat(pod.getImagePullSecrets()).extracting(s -> s.getName()).containsExactly("acme-pull");
    assertThat(pod.getNodeSelector()).containsExactly(Map.entry("acme.io/gpu", "true"));
    assertThat(pod.getTolerations()).as("the GPU nodes' toleration (nvml), then the user's")
        .containsExactly(new Toleration("NoSchedule", "nvidia.com/gpu", "Exists", null, null),
            new Toleration("NoSchedule", "acme.io/dedicated", "Equal", null, "gpu"));
    assertThat(pod.getAffinity()).as("the user's node affinity replaces the GPU nodes' one")
        .isEqualTo(Serialization.unmarshal("""
            nodeAffinity:
              requiredDuringSchedulingIgnoredDuringExecution:
                nodeSelectorTerms:
                  - matchExpressions:
                      - key: kubernetes.io/arch
                        operator: In
                        values: [amd64]
            """, Affinity.class));

    Container container = pod.getContainers().get(0);
    assertThat(container.getImage()).isEqualTo("registry.acme.io/gpu-driver:1.2.3");
    assertThat(container.getImagePullPolicy()).isEqualTo("Always");
    Map<String, String> env = new LinkedHashMap<>();
    env.put("NODE_NAME", "fieldRef:spec.nodeName");
    env.put("NAMESPACE", "fieldRef:metadata.namespace");
    env.put("POD_UID", "fieldRef:metadata.uid");
    env.put("DRIVER_NAME", "gpu.acme.io");
    env.put("LOG_LEVEL", "4");
    env.put("LOG_FORMAT", "json");
    env.put("KUBELET_REGISTRAR_DIRECTORY_PATH", REGISTRAR);
    env.put("KUBELET_PLUGINS_DIRECTORY_PATH", PLUGINS);
    env.put("CDI_ROOT", "/etc/cdi");
    env.put("HEALTHCHECK_PORT", "50505");
    env.put("HEALTHCHECK_ADDRESS", "10.0.0.5");
    env.put("METRICS_PORT", "-1");
    env.put("KUBE_API_QPS", "20");
    env.put("KUBE_API_BURST", "40");
    env.put("GPU_BACKEND", "nvml");
    env.put("NUM_DEVICES", "2");
    env.put("GPU_PARTITIONS", "4");
    env.put("GPU_ALLOW_MULTIPLE_ALLOCATIONS", "true");
    env.put("GPU_DEVICE_STATUS", "true");
    env.put("GPU_HEALTH_FILE", "/health/gpus.json");
    env.put("NVIDIA_DRIVER_ROOT", "/run/nvidia/driver");
    env.put("DRIVER_ROOT_CTR_PATH", "/driver-root");
    env.put("NVIDIA_VISIBLE_DEVICES", "void");
    env.put("ADDITIONAL_XIDS_TO_IGNORE", "13,48");
    env.put("CDI_DRIVER_CAPABILITIES", "compute,utility,video");
    env.put("NVIDIA_CDI_HOOK_PATH", "/usr/local/nvidia/toolkit/nvidia-cdi-hook");
    env.put("CDI_DISABLED_HOOKS", "enable-cuda-compat");
    env.put("MPS_START_TIMEOUT_SECONDS", "90");
    env.put("MPS_STOP_TIMEOUT_SECONDS", "10");
    env.put("JAVA_TOOL_OPTIONS", "-Xmx100m");
    env.put("MALLOC_ARENA_MAX", "2");
    env.put("HTTPS_PROXY", "http://proxy.acme.io:3128");
    assertThat(env(container)).as("the plugin's environment").isEqualTo(env);

    assertGrpcProbe(container.getStartupProbe(), "startupProbe", 50505, 2, 60, 5);
    assertGrpcProbe(container.getLivenessProbe(), "livenessProbe", 50505, 10, 3, 10);
    assertThat(port(container, "metrics")).as("no metrics port with metrics off").isEmpty();
    assertThat(rendered.all(Service.class)).as("no metrics Service with metrics off").isEmpty();

    VolumeMount driverRoot = mount(container, "/driver-root");
    assertThat(driverRoot.getReadOnly()).as("driver root read-only").isTrue();
    assertThat(driverRoot.getMountPropagation()).isEqualTo("HostToContainer");
    Volume driverRootVolume = volume(pod, driverRoot.getName());
    assertThat(driverRootVolume.getHostPath().getPath()).isEqualTo("/run/nvidia/driver");
    assertHostPathMount(pod, container, "/etc/cdi", "/etc/cdi");
    assertHostPathMount(pod, container, REGISTRAR, REGISTRAR);
    assertHostPathMount(pod, container, PLUGINS, PLUGINS);
    assertThat(volume(pod, mount(container, "/health").getName()).getHostPath().getPath())
        .isEqualTo("/var/lib/acme-health");
    assertThat(container.getVolumeMounts()).as("mounts").hasSize(5);

    assertThat(container.getResources().getLimits())
        .containsExactly(Map.entry("memory", new Quantity("300Mi")));
    assertThat(container.getResources().getRequests()).containsExactlyInAnyOrderEntriesOf(
        Map.of("cpu", new Quantity("100m"), "memory", new Quantity("200Mi")));
  }

  @Test
  void simulatedBackendMountsNoDriverRoot() {
    Rendered rendered = Helm.require().template("--set",
        "kubeletPlugin.nvidiaDriverRoot=/run/nvidia/driver");

    PodSpec pod = rendered.one(DaemonSet.class).getSpec().getTemplate().getSpec();
    Container container = pod.getContainers().get(0);
    assertThat(container.getVolumeMounts()).extracting(VolumeMount::getMountPath)
        .doesNotContain("/driver-root");
    assertThat(pod.getVolumes()).extracting(Volume::getName).doesNotContain("driver-root");
    assertThat(env(container)).doesNotContainKeys("NVIDIA_DRIVER_ROOT", "DRIVER_ROOT_CTR_PATH",
        "NVIDIA_VISIBLE_DEVICES", "ADDITIONAL_XIDS_TO_IGNORE", "CDI_DRIVER_CAPABILITIES",
        "MPS_START_TIMEOUT_SECONDS");
  }

  /** The environment as name to value, or to {@code fieldRef:<path>}; no name twice. */
  private static Map<String, String> env(Container container) {
    Map<String, String> env = new LinkedHashMap<>();
    for (EnvVar var : container.getEnv()) {
      String value = var.getValueFrom() != null
          ? "fieldRef:" + var.getValueFrom().getFieldRef().getFieldPath()
          : var.getValue();
      assertThat(env.put(var.getName(), value)).as("env %s set twice", var.getName()).isNull();
    }
    return env;
  }

  private static void assertGrpcProbe(Probe probe, String what, int port, int period,
      int failureThreshold, int timeout) {
    assertThat(probe).as(what).isNotNull();
    assertThat(probe.getGrpc()).as("%s is a gRPC probe", what).isNotNull();
    assertThat(probe.getGrpc().getPort()).as("%s port", what).isEqualTo(port);
    // the name the SDK's liveness probe answers: any other is NOT_FOUND, and the probe fails
    assertThat(probe.getGrpc().getService()).as("%s gRPC service", what)
        .isEqualTo(KubeletPlugin.LIVENESS_SERVICE);
    assertThat(probe.getPeriodSeconds()).as("%s periodSeconds", what).isEqualTo(period);
    assertThat(probe.getFailureThreshold()).as("%s failureThreshold", what)
        .isEqualTo(failureThreshold);
    assertThat(probe.getTimeoutSeconds()).as("%s timeoutSeconds", what).isEqualTo(timeout);
  }

  private static Optional<ContainerPort> port(Container container, String name) {
    return container.getPorts().stream().filter(p -> name.equals(p.getName())).findFirst();
  }

  private static VolumeMount mount(Container container, String path) {
    List<VolumeMount> found = container.getVolumeMounts().stream()
        .filter(m -> path.equals(m.getMountPath())).toList();
    assertThat(found).as("one mount at %s in %s", path, container.getVolumeMounts()).hasSize(1);
    return found.get(0);
  }

  private static Volume volume(PodSpec pod, String name) {
    List<Volume> found = pod.getVolumes().stream().filter(v -> name.equals(v.getName())).toList();
    assertThat(found).as("one volume %s", name).hasSize(1);
    return found.get(0);
  }

  private static void assertHostPathMount(PodSpec pod, Container container, String mountPath,
      String hostPath) {
    VolumeMount mount = mount(container, mountPath);
    assertThat(mount.getReadOnly()).as("%s writable", mountPath).isNotEqualTo(true);
    Volume volume = volume(pod, mount.getName());
    assertThat(volume.getHostPath()).as("%s is a hostPath", mountPath).isNotNull();
    assertThat(volume.getHostPath().getPath()).as("host path of %s", mountPath)
        .isEqualTo(hostPath);
    assertThat(volume.getHostPath().getType()).as("hostPath type of %s", mountPath)
        .isEqualTo("DirectoryOrCreate");
  }
}
