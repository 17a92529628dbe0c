package io.github.dra4j.testing.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Which published slices the simulated node's scheduler considers. */
class SimulatedNodeAllocationTest {

  private static final String DRIVER = "net.example.com";

  private final SimulatedNode node = SimulatedNode.start();

  @AfterEach
  void close() {
    node.close();
  }

  private void publish(String pool, String nodeName, String device) {
    node.client().dynamicResourceAllocation().v1().resourcesSlices().resource(
        new ResourceSliceBuilder().withNewMetadata().withName(pool).endMetadata()
            .withNewSpec().withDriver(DRIVER)
            .withNodeName(nodeName).withAllNodes(nodeName == null ? Boolean.TRUE : null)
            .withNewPool().withName(pool).withGeneration(1L).withResourceSliceCount(1L).endPool()
            .addNewDevice().withName(device).endDevice()
            .endSpec().build())
        .create();
  }

  @Test
  void slicesForAllNodesAreAllocatedButThoseOfOtherNodesAreNot() {
    publish("fabric", null, "nic-0");
    publish("elsewhere", "node-2", "nic-9");
    node.createDeviceClass("nic", "device.driver == \"" + DRIVER + "\"");

    ResourceClaim one = node.allocate(node.createClaim("default", "one", "nic", "nic", 1));

    assertThat(one.getStatus().getAllocation().getDevices().getResults())
        .extracting(DeviceRequestAllocationResult::getPool,
            DeviceRequestAllocationResult::getDevice)
        .containsExactly(tuple("fabric", "nic-0"));
    ResourceClaim two = node.createClaim("default", "two", "nic", "nic", 1);
    assertThatThrownBy(() -> node.allocate(two)).isInstanceOf(AllocationFailedException.class)
        .hasMessageContaining("default/two");
  }
}
