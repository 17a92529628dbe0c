package io.github.dra4j.testing.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.cdi.spec.ContainerEdits;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.testing.junit.DraTest;
import io.github.dra4j.testing.kubelet.PrepareOutcome;
import io.github.dra4j.testing.kubelet.SliceWipe;
import io.github.dra4j.testing.node.AllocationFailedException;
import io.github.dra4j.testing.node.SimulatedNode;
import java.nio.file.Files;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The whole story with a sample driver from the test sources, through {@link DraTest}: published,
 * allocated, prepared (CDI resolved to container edits), unprepared; kubelet restart and driver
 * upgrade.
 */
@DraTest(driver = FpgaDriverSetup.class)
class EndToEndTest {

  @BeforeEach
  void createClass(SimulatedNode node) {
    node.createDeviceClass("fpga", "device.driver == \"fpga.example.com\"");
  }

  @Test
  void publishedAllocatedPreparedAndUnprepared(SimulatedNode node, FpgaDriver driver)
      throws Exception {
    ResourceClaim claim = node.createClaim("ml", "bitstream", "fpga", "fpga", 1);
    claim = node.allocate(claim);
    assertThat(claim.getStatus().getAllocation().getDevices().getResults()).singleElement()
        .satisfies(r -> {
          assertThat(r.getDriver()).isEqualTo("fpga.example.com");
          assertThat(r.getPool()).isEqualTo("node-1");
          assertThat(r.getDevice()).isEqualTo("slot-0");
        });

    PrepareOutcome prepared = node.prepare("fpga.example.com", claim);
    assertThat(prepared.isSuccess()).as(String.valueOf(prepared.error())).isTrue();
    ContainerEdits edits = node.containerEdits(prepared, claim);
    assertThat(edits.env()).containsExactly("FPGA_SLOT=0");
    assertThat(edits.deviceNodes()).extracting(n -> n.path()).containsExactly("/dev/fpga-slot-0");
    assertThat(driver.prepared).containsExactly(claim.getMetadata().getUid());

    assertThat(node.unprepare("fpga.example.com", claim).isSuccess()).isTrue();
    try (Stream<java.nio.file.Path> specs = Files.list(node.cdiDirectory())) {
      assertThat(specs).isEmpty();
    }
  }

  @Test
  void aSelectorOnAttributesPicksTheMatchingDeviceAndTooBigAClaimGetsTheSchedulersReason(
      SimulatedNode node) {
    node.createDeviceClass("stratix",
        "device.driver == \"fpga.example.com\" && device.attributes[\"fpga.example.com\"]"
            + ".family == \"stratix\"");

    ResourceClaim stratix = node.allocate(node.createClaim("ml", "s", "fpga", "stratix", 1));

    assertThat(stratix.getStatus().getAllocation().getDevices().getResults().get(0).getDevice())
        .isEqualTo("slot-1");
    assertThatThrownBy(() -> node.allocate(node.createClaim("ml", "big", "fpga", "fpga", 3)))
        .isInstanceOf(AllocationFailedException.class)
        .hasMessage("claim ml/big cannot be allocated: cannot allocate all claims");
  }

  @Test
  void aKubeletRestartWipesTheSlicesAndTheDriverRepublishesThem(
      SimulatedNode node, KubeletPlugin plugin) {
    long startWipes = startWipes(node);
    long creates = plugin.sliceStats().creates();

    node.restartKubelet();

    assertThat(startWipes(node)).isEqualTo(startWipes + 1);
    await().atMost(Duration.ofSeconds(60)).untilAsserted(
        () -> assertThat(plugin.sliceStats().creates()).as("recreated by the controller")
            .isGreaterThan(creates));
    assertThat(node.awaitDevices("fpga.example.com", 2)).isNotEmpty();
    await().atMost(Duration.ofSeconds(60)).until(
        () -> node.kubelet().chosenPlugin("fpga.example.com").isPresent());
  }

  private static long startWipes(SimulatedNode node) {
    return node.kubelet().wipes().stream()
        .filter(w -> w.reason() == SliceWipe.Reason.KUBELET_START).count();
  }

  @Test
  void anUpgradeHandsCallsToTheNewInstance(SimulatedNode node, KubeletPlugin plugin,
      FpgaDriver oldDriver) {
    FpgaDriver newDriver = new FpgaDriver();
    KubeletPlugin upgraded = node.upgradeDriver(plugin, "fpga.example.com", newDriver.lifecycle(),
        null);
    ResourceClaim claim = node.allocate(node.createClaim("ml", "after", "fpga", "fpga", 1));

    assertThat(node.prepare("fpga.example.com", claim).isSuccess()).isTrue();

    assertThat(plugin.isServing()).isFalse();
    assertThat(upgraded.isServing()).isTrue();
    assertThat(newDriver.prepared).containsExactly(claim.getMetadata().getUid());
    assertThat(oldDriver.prepared).isEmpty();
    assertThat(node.kubelet().wipes()).as("no wipe during a handover")
        .noneMatch(w -> w.reason() == SliceWipe.Reason.DRIVER_UNUSABLE);
  }
}
