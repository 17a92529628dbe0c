package io.github.dra4j.testing.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplateBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.dra4j.kubeletplugin.CallContext;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.lifecycle.ClaimDriver;
import io.github.dra4j.lifecycle.ClaimLifecycle;
import io.github.dra4j.lifecycle.PreparedClaim;
import io.github.dra4j.resourceclaim.DriverAllocation;
import io.github.dra4j.testing.readme.ExampleGpuDriver;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link SimulatedPods} with the README's driver on the SDK's claim lifecycle: pods get claims
 * from templates or share a named one, stopping the last user unprepares, and after a kubelet
 * restart or a {@link SimulatedNode#reboot()} {@link SimulatedPods#prepareAgain()} gets the same
 * answers, the driver being asked again only after the reboot (new boot ID, CDI directory wiped).
 */
class SimulatedPodsTest {

  private static final String DRIVER = ExampleGpuDriver.NAME;

  private SimulatedNode node;
  private final AtomicInteger prepares = new AtomicInteger();

  @BeforeEach
  void start() {
    node = SimulatedNode.start();
    node.createDeviceClass("gpu", "device.driver == '" + DRIVER + "'");
    startDriver();
    KubernetesClient client = node.client();
    client.resource(new ResourceClaimTemplateBuilder().withNewMetadata().withNamespace("default")
        .withName("one-gpu").endMetadata().withNewSpec().withNewSpec().withNewDevices()
        .addNewRequest().withName("gpu").withNewExactly().withDeviceClassName("gpu").endExactly()
        .endRequest().endDevices().endSpec().endSpec().build()).create();
    node.createClaim("default", "shared", "gpu", "gpu", 1);
  }

  @AfterEach
  void stop() {
    node.close();
  }

  /** The README's driver, counting the prepares the lifecycle passes on to it. */
  private KubeletPlugin startDriver() {
    ExampleGpuDriver example = new ExampleGpuDriver();
    ClaimDriver<Void> counting = new ClaimDriver<>() {
      @Override
      public PreparedClaim<Void> prepare(DriverAllocation allocation, ResourceClaim claim,
          CallContext context) {
        prepares.incrementAndGet();
        return example.prepare(allocation, claim, context);
      }

      @Override
      public void unprepare(DriverAllocation allocation, Void state, CallContext context) {
        example.unprepare(allocation, null, context);
      }

      @Override
      public void rollback(DriverAllocation allocation, Optional<Void> state,
          CallContext context) {
        example.rollback(allocation, state, context);
      }
    };
    KubeletPlugin plugin = node.startDriver(DRIVER,
        ClaimLifecycle.builder(counting, Void.class).build(), null);
    plugin.publishResources(ExampleGpuDriver.devices(node.nodeName(), 2));
    node.awaitDevices(DRIVER, 2);
    return plugin;
  }

  private static Pod pod(String name, String claimName, String templateName) {
    return new PodBuilder().withNewMetadata().withName(name).endMetadata().withNewSpec()
        .addNewContainer().withName("ctr").withNewResources().addNewClaim().withName("gpu")
        .endClaim().endResources().endContainer()
        .addNewResourceClaim().withName("gpu").withResourceClaimName(claimName)
        .withResourceClaimTemplateName(templateName).endResourceClaim().endSpec().build();
  }

  private List<String> specs() throws IOException {
    try (Stream<Path> files = Files.list(node.cdiDirectory())) {
      return files.map(f -> f.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void templatesGiveEachPodItsClaimAndTheLastUserOfASharedClaimUnpreparesIt() throws Exception {
    RunningPod own = node.pods().start(pod("own", null, "one-gpu"));
    RunningPod first = node.pods().start(pod("first", "shared", null));
    RunningPod second = node.pods().start(pod("second", "shared", null));

    assertThat(own.claims().get("gpu").getMetadata().getName()).isEqualTo("own-gpu");
    assertThat(own.environment("ctr").get("GPU"))
        .isNotEqualTo(first.environment("ctr").get("GPU"));
    assertThat(first.environment("ctr")).isEqualTo(second.environment("ctr"));
    assertThat(specs()).hasSize(2);

    node.pods().stop(first);
    assertThat(specs()).as("still used by the second pod").hasSize(2);
    node.pods().stop(second);
    node.pods().stop(own);
    assertThat(specs()).isEmpty();
    assertThat(node.client().dynamicResourceAllocation().v1().resourceClaims()
        .inNamespace("default").withName("own-gpu").get()).as("generated claim deleted").isNull();
    assertThat(node.pods().running()).isEmpty();
  }

  @Test
  void aPodWhoseClaimDoesNotExistIsRefusedNamingIt() {
    assertThatThrownBy(() -> node.pods().start(pod("lost", "missing", null)))
        .hasMessage("pod lost: claim default/missing does not exist");
  }

  @Test
  void afterAKubeletRestartTheSameBootAnswersFromTheCheckpoint() throws Exception {
    RunningPod own = node.pods().start(pod("own", null, "one-gpu"));
    RunningPod shared = node.pods().start(pod("shared", "shared", null));
    List<String> specs = specs();

    node.restartKubelet();
    node.awaitDevices(DRIVER, 2);
    List<RunningPod> again = node.pods().prepareAgain();

    assertThat(again).extracting(RunningPod::name).containsExactly("own", "shared");
    assertThat(again.get(0).environment("ctr")).isEqualTo(own.environment("ctr"));
    assertThat(again.get(1).environment("ctr")).isEqualTo(shared.environment("ctr"));
    assertThat(prepares).as("not asked again").hasValue(2);
    assertThat(specs()).isEqualTo(specs);
    assertThat(node.pods().running()).isEqualTo(again);
  }

  @Test
  void aRebootWipesTheCdiDirectoryAndTheDriverPreparesEveryRunningClaimAgain() throws Exception {
    RunningPod own = node.pods().start(pod("own", null, "one-gpu"));
    List<String> specs = specs();
    String bootId = Files.readString(node.bootIdFile());

    node.reboot();
    assertThat(specs()).as("CDI directory after the reboot").isEmpty();
    assertThat(Files.readString(node.bootIdFile())).isNotEqualTo(bootId);
    startDriver();
    List<RunningPod> again = node.pods().prepareAgain();

    assertThat(prepares).as("prepared again: the reboot lost the device setup").hasValue(2);
    assertThat(again.get(0).environment("ctr")).isEqualTo(own.environment("ctr"));
    assertThat(specs()).isEqualTo(specs);
    node.pods().stop(own);
    assertThat(specs()).as("a pod from before the reboot stops as any other").isEmpty();
  }
}
