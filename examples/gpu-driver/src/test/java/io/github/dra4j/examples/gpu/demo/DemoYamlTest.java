package io.github.dra4j.examples.gpu.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.github.dra4j.examples.gpu.GpuDriver;
import io.github.dra4j.examples.gpu.backend.SimulatedBackend;
import io.github.dra4j.examples.gpu.config.GpuConfigs;
import io.github.dra4j.examples.gpu.devices.DeviceLayout;
import io.github.dra4j.testing.node.AllocationFailedException;
import io.github.dra4j.testing.node.RunningPod;
import io.github.dra4j.testing.node.SimulatedNode;
import io.github.dra4j.webhook.AdmissionDecision;
import io.github.dra4j.webhook.AdmissionReviewHandler;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The demo YAML files a user applies to a cluster ({@code examples/gpu-driver/demo/}), applied
 * as they are to a simulated node running the driver with 4 simulated GPUs: every object is
 * stored, every pod started (claims from templates, allocated, prepared) and each container's
 * environment checked, so the files stay true.
 */
class DemoYamlTest {

  private static final String DRIVER = GpuDriver.DEFAULT_NAME;
  private static final Path DEMO = Path.of("demo");
  private static final List<String> TESTED = new ArrayList<>();

  private SimulatedNode node;
  private GpuDriver driver;

  @BeforeEach
  void start() throws Exception {
    node = SimulatedNode.start();
    driver = GpuDriver.create(DRIVER, node.nodeName(), new SimulatedBackend(node.nodeName(), 4,
        node.pluginDataDirectory(DRIVER).resolveSibling("gpu-health.json")),
        DeviceLayout.WHOLE_GPUS, false);
    driver.attach(node.startDriver(DRIVER, driver.lifecycle(), null));
    node.awaitDevices(DRIVER, 4);
    // The chart's class: the driver's devices of type gpu.
    node.createDeviceClass("gpu.example.com", "device.driver == '" + DRIVER + "'",
        "device.attributes['" + DRIVER + "'].type == 'gpu'");
  }

  @AfterEach
  void stop() {
    driver.close();
    node.close();
  }

  @AfterAll
  static void everyDemoFileIsTested() throws IOException {
    try (Stream<Path> files = Files.list(DEMO)) {
      assertThat(files.map(f -> f.getFileName().toString())).as("demo files with a test")
          .containsExactlyInAnyOrderElementsOf(TESTED);
    }
  }

  /** Stores every object of a demo file but its pods, and returns the pods, started. */
  private List<RunningPod> apply(String file) throws IOException {
    TESTED.add(file);
    List<RunningPod> pods = new ArrayList<>();
    for (HasMetadata object : load(file)) {
      if (object instanceof Pod pod) {
        pods.add(node.pods().start(pod));
      } else {
        node.client().resource(object).create();
      }
    }
    return pods;
  }

  private List<HasMetadata> load(String file) throws IOException {
    try (InputStream in = Files.newInputStream(DEMO.resolve(file))) {
      return node.client().load(in).items();
    }
  }

  private static String gpuOf(Map<String, String> env) {
    return env.entrySet().stream().filter(e -> e.getKey().matches("GPU_DEVICE_\\d+"))
        .map(Map.Entry::getValue).findFirst().orElseThrow();
  }

  @Test
  void test1TwoPodsGetOneGpuEachFromATemplate() throws IOException {
    List<RunningPod> pods = apply("gpu-test1.yaml");

    String first = gpuOf(pods.get(0).environment("ctr0"));
    String second = gpuOf(pods.get(1).environment("ctr0"));
    assertThat(first).isNotEqualTo(second);
    pods.forEach(node.pods()::stop);
    assertThat(node.client().dynamicResourceAllocation().v1().resourceClaims()
        .inNamespace("gpu-test1").list().getItems()).as("generated claims deleted").isEmpty();
  }

  @Test
  void test2TwoContainersOfOnePodShareOneGpu() throws IOException {
    RunningPod pod = apply("gpu-test2.yaml").get(0);

    assertThat(gpuOf(pod.environment("ctr0"))).isEqualTo(gpuOf(pod.environment("ctr1")));
    assertThat(pod.environment("ctr0")).containsEntry("DRA_RESOURCE_DRIVER_NAME", DRIVER);
  }

  @Test
  void test3TwoPodsShareOneClaimAndItStaysPreparedUntilTheLastStops() throws IOException {
    List<RunningPod> pods = apply("gpu-test3.yaml");

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
  void test4EachRequestGetsItsOwnSharingSetting() throws IOException {
    RunningPod pod = apply("gpu-test4.yaml").get(0);

    Map<String, String> timeSliced = pod.environment("ts-ctr");
    Map<String, String> partitioned = pod.environment("sp-ctr");
    String ts = "GPU_DEVICE_" + gpuOf(timeSliced).substring(4);
    String sp = "GPU_DEVICE_" + gpuOf(partitioned).substring(4);
    assertThat(timeSliced).containsEntry(ts + "_SHARING_STRATEGY", "TimeSlicing")
        .containsEntry(ts + "_TIMESLICE_INTERVAL", "Long").doesNotContainKey(sp);
    assertThat(partitioned).containsEntry(sp + "_SHARING_STRATEGY", "SpacePartitioning")
        .containsEntry(sp + "_PARTITION_COUNT", "10").doesNotContainKey(ts);
  }

  @Test
  void test5CelSelectsOnAnAttributeAndACapacity() throws IOException {
    RunningPod pod = apply("gpu-test5.yaml").get(0);

    assertThat(gpuOf(pod.environment("ctr0"))).startsWith("gpu-");
    ResourceClaim impossible = node.client().dynamicResourceAllocation().v1().resourceClaims()
        .inNamespace("gpu-test5").withName("impossible-gpu").get();
    assertThatThrownBy(() -> node.allocate(impossible))
        .isInstanceOf(AllocationFailedException.class);
  }

  @Test
  void test6AnInvalidConfigurationIsRefusedByTheWebhookAndByThePlugin() throws IOException {
    apply("gpu-test6.yaml");
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

  private static byte[] review(String kind, String resource, HasMetadata object) {
    return ("{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":"
        + "{\"uid\":\"demo\",\"kind\":{\"group\":\"resource.k8s.io\",\"version\":\"v1\",\"kind\":\""
        + kind + "\"},\"resource\":{\"group\":\"resource.k8s.io\",\"version\":\"v1\","
        + "\"resource\":\"" + resource + "\"},\"operation\":\"CREATE\",\"namespace\":\""
        + object.getMetadata().getNamespace() + "\",\"object\":" + Serialization.asJson(object)
        + "}}").getBytes(StandardCharsets.UTF_8);
  }
}
