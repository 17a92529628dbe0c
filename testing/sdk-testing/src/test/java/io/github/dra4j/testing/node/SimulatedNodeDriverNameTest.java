package io.github.dra4j.testing.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.kubeletplugin.CallContext;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.lifecycle.ClaimDriver;
import io.github.dra4j.lifecycle.ClaimLifecycle;
import io.github.dra4j.lifecycle.PreparedClaim;
import io.github.dra4j.resourceclaim.AllocatedDevice;
import io.github.dra4j.resourceclaim.DriverAllocation;
import io.github.dra4j.resourceslice.DriverResources;
import io.github.dra4j.resourceslice.Pool;
import io.github.dra4j.testing.kubelet.PrepareOutcome;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A driver name of the full 63 characters Kubernetes allows runs on a simulated node: its sockets
 * (below the node's short directory, the DRA socket's name hashed where the pod UID would not
 * fit) stay within the 107 bytes Linux can bind.
 */
class SimulatedNodeDriverNameTest {

  /** Gives each device's name to the container as DEVICE. */
  private static final class NamingDriver implements ClaimDriver<Void> {
    @Override
    public PreparedClaim<Void> prepare(DriverAllocation allocation, ResourceClaim claim,
        CallContext context) {
      PreparedClaim.Builder<Void> prepared = PreparedClaim.builder(null);
      for (AllocatedDevice device : allocation.devices()) {
        prepared.device(device, edits -> edits.env("DEVICE", device.device()));
      }
      return prepared.build();
    }

    @Override
    public void unprepare(DriverAllocation allocation, Void state, CallContext context) {}

    @Override
    public void rollback(DriverAllocation allocation, Optional<Void> state,
        CallContext context) {}
  }

  @Test
  void aDriverNameOfTheFull63CharactersPublishesAndPrepares() {
    String driver = "d".repeat(51) + ".example.com";
    assertThat(driver).hasSize(63);
    try (SimulatedNode node = SimulatedNode.start()) {
      KubeletPlugin plugin = node.startDriver(driver,
          ClaimLifecycle.builder(new NamingDriver(), Void.class).build(), null);
      for (var socket : List.of(plugin.draSocket(), plugin.registrationSocket())) {
        assertThat(socket.toString().getBytes(StandardCharsets.UTF_8).length).as("%s", socket)
            .isLessThanOrEqualTo(107);
      }
      plugin.publishResources(DriverResources.of(node.nodeName(), Pool.builder()
          .devices(List.of(new DeviceBuilder().withName("dev-0").build())).build()));
      node.awaitDevices(driver, 1);
      node.createDeviceClass("dev", "device.driver == \"" + driver + "\"");

      ResourceClaim claim = node.allocate(node.createClaim("default", "c", "dev", "dev", 1));
      PrepareOutcome prepared = node.prepare(driver, claim);

      assertThat(node.containerEdits(prepared, claim).env()).contains("DEVICE=dev-0");
      assertThat(node.unprepare(driver, claim).isSuccess()).isTrue();
    }
  }
}
