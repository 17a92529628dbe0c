package io.github.dra4j.examples.gpu.demo;

import static io.github.dra4j.examples.gpu.demo.DemoManifests.devicesOf;
import static io.github.dra4j.examples.gpu.demo.DemoManifests.prefix;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.github.dra4j.examples.gpu.GpuDriver;
import io.github.dra4j.examples.gpu.RecordingSharingCommands;
import io.github.dra4j.examples.gpu.backend.SimulatedBackend;
import io.github.dra4j.examples.gpu.config.GpuConfigs;
import io.github.dra4j.examples.gpu.devices.DeviceLayout;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.testing.node.AllocationFailedException;
import io.github.dra4j.testing.node.RunningPod;
import io.github.dra4j.testing.node.SimulatedNode;
import io.github.dra4j.webhook.AdmissionDecision;
import io.github.dra4j.webhook.AdmissionReviewHandler;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The demo YAML files a user applies to a cluster ({@code examples/gpu-driver/demo/}), applied
 * as they are to a simulated node running the driver with 4 simulated GPUs in the layout each
 * demo needs, with the chart's three DeviceClasses: every object is stored, every pod started
 * (claims from templates, allocated, prepared) and each container's environment checked, so the
 * files stay true. The last tests keep pods running through a kubelet restart, a driver upgrade
 * and a node reboot, after which the kubelet prepares every running claim again.
 */
class DemoYamlTest {

  private static final String DRIVER = GpuDriver.DEFAULT_NAME;
  private static final int GPUS = 4;
  private static final DemoManifests DEMO = new DemoManifests(Path.of("demo"));

  private SimulatedNode node;
  private RecordingSharingCommands sharing;
  private GpuDriver driver;
  private KubeletPlugin plugin;

  @BeforeEach
  void startNode() {
    node = SimulatedNode.start();
    sharing = new RecordingSharingCommands();
    // The chart's classes: the driver's devices of one type each.
    for (String type : List.of("gpu", "partition", "mig")) {
      node.createDeviceClass(type.equals("gpu") ? DRIVER : type + "." + DRIVER,
          "device.driver == '" + DRIVER + "'",
          "device.attributes['" + DRIVER + "'].type == '" + type + "'");
    }
  }

  /** Starts the driver as its DaemonSet would, and waits until its devices are published. */
  private GpuDriver startDriver(DeviceLayout layout) throws Exception {
    GpuDriver started = GpuDriver.create(DRIVER, node.nodeName(), new SimulatedBackend(
        node.nodeName(), GPUS, node.pluginDataDirectory(DRIVER).resolveSibling("gpu-health.json"),
        Duration.ofSeconds(1), sharing), layout, false);
    plugin = node.startDriver(DRIVER, started.lifecycle(), null);
    started.attach(plugin);
    node.awaitDevices(DRIVER, started.catalog().devices().size());
    return started;
  }

  @AfterEach
  void stop() {
    if (driver != null) {
      driver.close();
    }
    node.close();
  }

  @AfterAll
  static void everyDemoFileIsTested() throws IOException {
    DEMO.assertEveryFileApplied("demo files (demo/nvidia/: NvidiaManifestsTest)");
  }

  private static String gpuOf(Map<String, String> env) {
    return devicesOf(env).get(0);
  }

  @Test
  void test1TwoPodsGetOneGpuEachFromATemplate() throws Exception {
    driver = startDriver(DeviceLayout.WHOLE_GPUS);
    List<RunningPod> pods = DEMO.apply(node, "gpu-test1.yaml");

    String first = gpuOf(pods.get(0).environment("ctr0"));
    String second = gpuOf(pods.get(1).environment("ctr0"));
    assertThat(first).isNotEqualTo(second);
    pods.forEach(node.pods()::stop);
    assertThat(node.client().dynamicResourceAllocation().v1().resourceClaims()
        .inNamespace("gpu-test1").list().getItems()).as("generated claims deleted").isEmpty();
  }

  @Test
  void test2TwoContainersOfOnePodShareOneGpu() throws Exception {
    driver = startDriver(DeviceLayout.WHOLE_GPUS);
    RunningPod pod = DEMO.apply(node, "gpu-test2.yaml").get(0);

    assertThat(gpuOf(pod.environment("ctr0"))).isEqualTo(gpuOf(pod.environment("ctr1")));
    assertThat(pod.environment("ctr0")).containsEntry("DRA_RESOURCE_DRIVER_NAME", DRIVER);
  }

  @Test
  void test3TwoPodsShareOneClaimAndItStaysPreparedUntilTheLastStops() throws Exception {
    driver = startDriver(DeviceLayout.WHOLE_GPUS);
    List<RunningPod> pods = DEMO.apply(node, "gpu-test3.yaml");

    assertThat(gpuOf(pods.get(0).environment("ctr0")))
        .isEqualTo(gpuOf(pods.get(1).environment("ctr0")));
    node.pods().stop(pods.get(0));
    assertThat(Files.exists(specOf(pods.get(1)))).as("still prepared for pod1").isTrue();
    node.pods().stop(pods.get(1));
    assertThat(Files.exists(specOf(pods.get(1)))).as("unprepared after the last pod").isFalse();
  }

  private Path specOf(RunningPod pod) {
    String uid = pod.claims().values().iterator().next().getMetadata().getUid();
    return node.cdiDirectory().resolve("k8s." + DRIVER + "-gpu_" + uid + ".json");
  }

  @Test
  void test4EachRequestGetsItsOwnSharingSetting() throws Exception {
    driver = startDriver(DeviceLayout.WHOLE_GPUS);
    RunningPod pod = DEMO.apply(node, "gpu-test4.yaml").get(0);

    Map<String, String> timeSliced = pod.environment("ts-ctr");
    Map<String, String> mps = pod.environment("mps-ctr");
    String ts = "GPU_DEVICE_" + gpuOf(timeSliced).substring(4);
    String shared = "GPU_DEVICE_" + gpuOf(mps).substring(4);
    assertThat(timeSliced).containsEntry(ts + "_SHARING_STRATEGY", "TimeSlicing")
        .containsEntry(ts + "_TIMESLICE_INTERVAL", "Long").doesNotContainKey(shared);
    assertThat(mps).containsEntry(shared + "_SHARING_STRATEGY", "MPS")
        .containsEntry(shared + "_MPS_ACTIVE_THREAD_PERCENTAGE", "50").doesNotContainKey(ts);
  }

  @Test
  void test5CelSelectsOnAnAttributeAndACapacity() throws Exception {
    driver = startDriver(DeviceLayout.WHOLE_GPUS);
    RunningPod pod = DEMO.apply(node, "gpu-test5.yaml").get(0);

    assertThat(gpuOf(pod.environment("ctr0"))).startsWith("gpu-");
    ResourceClaim impossible = node.client().dynamicResourceAllocation().v1().resourceClaims()
        .inNamespace("gpu-test5").withName("impossible-gpu").get();
    assertThatThrownBy(() -> node.allocate(impossible))
        .isInstanceOf(AllocationFailedException.class);
  }

  @Test
  void test6AnInvalidConfigurationIsRefusedByTheWebhookAndByThePlugin() throws Exception {
    driver = startDriver(DeviceLayout.WHOLE_GPUS);
    DEMO.apply(node, "gpu-test6.yaml");
    ResourceClaimTemplate template = node.client().dynamicResourceAllocation().v1()
        .resourceClaimTemplates().inNamespace("gpu-test6").withName("misconfigured-gpu").get();

    AdmissionDecision decision = AdmissionReviewHandler.of(DRIVER, GpuConfigs.SCHEME)
        .handle(review("ResourceClaimTemplate", "resourceclaimtemplates", template));
    assertThat(decision.allowed()).isFalse();
    assertThat(decision.problems()).singleElement().satisfies(p -> {
      assertThat(p.path())
          .isEqualTo("spec.spec.devices.config[0].opaque.parameters.sharing.mpsConfig");
      assertThat(p.message()).isEqualTo("only with strategy MPS, not TimeSlicing");
    });

    ResourceClaim claim = node.allocate(node.createClaim(new ResourceClaimBuilder()
        .withNewMetadata().withNamespace("gpu-test6").withName("stored-anyway").endMetadata()
        .withSpec(template.getSpec().getSpec()).build()));
    assertThat(node.prepare(DRIVER, claim).result(claim.getMetadata().getUid()).error())
        .contains("sharing.mpsConfig: only with strategy MPS, not TimeSlicing");
  }

  @Test
  void test7TwoPartitionsOfOneGpuAndAWholeGpuFromAnother() throws Exception {
    driver = startDriver(new DeviceLayout(4, false));
    List<RunningPod> pods = DEMO.apply(node, "gpu-test7.yaml");

    Map<String, String> halves = pods.get(0).environment("ctr0");
    List<String> partitions = devicesOf(halves);
    assertThat(partitions).hasSize(2).allMatch(d -> d.matches("gpu-\\d+-partition-\\d+"));
    String gpu = partitions.get(0).substring(0, partitions.get(0).indexOf("-partition"));
    assertThat(partitions.get(1)).as("matchAttribute on uuid").startsWith(gpu + "-partition-");
    assertThat(halves.get(prefix(partitions.get(0)) + "_UUID"))
        .isEqualTo(halves.get(prefix(partitions.get(1)) + "_UUID"));
    assertThat(halves).containsEntry(prefix(partitions.get(0)) + "_TYPE", "partition");
    String whole = gpuOf(pods.get(1).environment("ctr0"));
    assertThat(whole).as("a whole GPU, not the partitioned one").matches("gpu-\\d+")
        .isNotEqualTo(gpu);
  }

  @Test
  void test8TwoClaimsShareOneGpuThroughConsumableCapacity() throws Exception {
    driver = startDriver(new DeviceLayout(0, true));
    List<RunningPod> pods = DEMO.apply(node, "gpu-test8.yaml");

    Map<String, String> first = pods.get(0).environment("ctr0");
    Map<String, String> second = pods.get(1).environment("ctr0");
    String gpu = gpuOf(first);
    assertThat(gpuOf(second)).as("one GPU for both claims").isEqualTo(gpu);
    String prefix = prefix(gpu);
    for (Map<String, String> env : List.of(first, second)) {
      assertThat(env).containsEntry(prefix + "_MEMORY", "16Gi")
          .containsEntry(prefix + "_COMPUTE", "20").containsKey(prefix + "_SHARE_ID");
    }
    assertThat(first.get(prefix + "_SHARE_ID")).isNotEqualTo(second.get(prefix + "_SHARE_ID"));
    assertThat(first.get(prefix + "_RESOURCE_CLAIM"))
        .isNotEqualTo(second.get(prefix + "_RESOURCE_CLAIM"));
  }

  @Test
  void test9AdminAccessSeesEveryGpuIncludingOneInUse() throws Exception {
    driver = startDriver(DeviceLayout.WHOLE_GPUS);
    List<RunningPod> pods = DEMO.apply(node, "gpu-test9.yaml");

    // The API server refuses adminAccess outside a namespace with this label.
    assertThat(DEMO.load(node, "gpu-test9.yaml").get(0).getMetadata().getLabels())
        .containsEntry("resource.kubernetes.io/admin-access", "true");
    Map<String, String> workload = pods.get(0).environment("ctr0");
    Map<String, String> monitor = pods.get(1).environment("ctr0");
    assertThat(workload).containsEntry("DRA_ADMIN_ACCESS", "false");
    assertThat(monitor).containsEntry("DRA_ADMIN_ACCESS", "true");
    assertThat(devicesOf(monitor)).hasSize(GPUS).contains(gpuOf(workload));
    assertThat(sharing.calls()).as("no setting applied to GPUs seen with admin access").isEmpty();
  }

  @Test
  void test10FirstAvailableFallsBackToAnyGpu() throws Exception {
    driver = startDriver(DeviceLayout.WHOLE_GPUS);
    RunningPod pod = DEMO.apply(node, "gpu-test10.yaml").get(0);

    assertThat(pod.claims().get("gpu").getStatus().getAllocation().getDevices().getResults())
        .singleElement().satisfies(r -> assertThat(r.getRequest()).isEqualTo("gpu/any-gpu"));
    assertThat(gpuOf(pod.environment("ctr0"))).matches("gpu-\\d+");
  }

  /** Each running container's environment, by pod and container, and every CDI spec's text. */
  private Map<String, Object> whatContainersSee(List<RunningPod> pods) throws IOException {
    Map<String, Object> seen = new TreeMap<>();
    for (RunningPod pod : pods) {
      for (var container : pod.pod().getSpec().getContainers()) {
        seen.put(pod.name() + "/" + container.getName(), pod.environment(container.getName()));
      }
    }
    try (Stream<Path> specs = Files.list(node.cdiDirectory())) {
      for (Path spec : specs.toList()) {
        seen.put(spec.getFileName().toString(), Files.readString(spec));
      }
    }
    return seen;
  }

  private List<RunningPod> startSharedAndConfiguredPods() throws IOException {
    List<RunningPod> pods = new ArrayList<>(DEMO.apply(node, "gpu-test3.yaml"));
    pods.addAll(DEMO.apply(node, "gpu-test4.yaml"));
    return pods;
  }

  @Test
  void kubeletRestartPreparesEveryRunningClaimAgainWithTheSameAnswer() throws Exception {
    driver = startDriver(DeviceLayout.WHOLE_GPUS);
    Map<String, Object> before = whatContainersSee(startSharedAndConfiguredPods());
    List<String> commands = sharing.calls();

    node.restartKubelet();
    node.kubelet().awaitRegistered(plugin.registrationSocket(), SimulatedNode.WAIT);
    node.awaitDevices(DRIVER, GPUS);
    List<RunningPod> again = node.pods().prepareAgain();

    assertThat(again).hasSize(3);
    assertThat(whatContainersSee(again)).isEqualTo(before);
    assertThat(sharing.calls()).as("the GPUs kept their settings").isEqualTo(commands);
  }

  @Test
  void driverUpgradeHandsOverEveryRunningClaim() throws Exception {
    driver = startDriver(DeviceLayout.WHOLE_GPUS);
    List<RunningPod> pods = startSharedAndConfiguredPods();
    Map<String, Object> before = whatContainersSee(pods);
    GpuDriver old = driver;

    GpuDriver next = GpuDriver.create(DRIVER, node.nodeName(), new SimulatedBackend(
        node.nodeName(), GPUS, node.pluginDataDirectory(DRIVER).resolveSibling("gpu-health.json"),
        Duration.ofSeconds(1), sharing), DeviceLayout.WHOLE_GPUS, false);
    plugin = node.upgradeDriver(plugin, DRIVER, next.lifecycle(), null);
    next.attach(plugin);
    old.close();
    driver = next;
    List<RunningPod> again = node.pods().prepareAgain();

    assertThat(whatContainersSee(again)).isEqualTo(before);
    again.forEach(node.pods()::stop);
    try (Stream<Path> specs = Files.list(node.cdiDirectory())) {
      assertThat(specs.map(f -> f.getFileName().toString()))
          .as("the new instance unprepared every claim").allMatch(f -> f.endsWith("_common.json"));
    }
    assertThat(sharing.calls()).last().asString().startsWith("reset ");
  }

  @Test
  void nodeRebootPreparesEveryRunningClaimAgainAndRewritesItsCdiSpec() throws Exception {
    driver = startDriver(DeviceLayout.WHOLE_GPUS);
    Map<String, Object> before = whatContainersSee(startSharedAndConfiguredPods());
    long applied = sharing.calls().stream().filter(c -> c.startsWith("apply ")).count();

    node.reboot();
    driver.close();
    try (Stream<Path> specs = Files.list(node.cdiDirectory())) {
      assertThat(specs).as("the CDI directory is a tmpfs").isEmpty();
    }
    driver = startDriver(DeviceLayout.WHOLE_GPUS);
    List<RunningPod> again = node.pods().prepareAgain();

    assertThat(whatContainersSee(again)).isEqualTo(before);
    assertThat(sharing.calls().stream().filter(c -> c.startsWith("apply ")).count())
        .as("sharing settings applied again: the GPUs lost them").isEqualTo(2 * applied)
        .isPositive();
  }

  private static byte[] review(String kind, String resource, HasMetadata object) {
    return ("{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":"
        + "{\"uid\":\"demo\",\"kind\":{\"group\":\"resource.k8s.io\",\"version\":\"v1\",\"kind\":\""
        + kind + "\"},\"resource\":{\"group\":\"resource.k8s.io\",\"version\":\"v1\","
        + "\"resource\":\"" + resource + "\"},\"operation\":\"CREATE\",\"namespace\":\""
        + object.getMetadata().getNamespace() + "\",\"object\":" + Serialization.asJson(object)
        + "}}").getBytes(StandardCharsets.UTF_8);
  }
}
