package io.github.dra4j.testing.readme;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.testing.junit.DraTest;
import io.github.dra4j.testing.kubelet.PrepareOutcome;
import io.github.dra4j.testing.node.SimulatedNode;
import org.junit.jupiter.api.Test;

/** The README's test, as it is shown there. */
// README:begin test
@DraTest(driver = ExampleGpuDriverSetup.class) // starts the driver on a simulated node per test
class ExampleGpuDriverTest {
  @Test
  void preparesAGpu(SimulatedNode node) {
    node.createDeviceClass("gpu", "device.driver == \"gpu.example.com\"");
    ResourceClaim claim = node.allocate(node.createClaim("default", "c", "gpu", "gpu", 1));
    PrepareOutcome prepared = node.prepare("gpu.example.com", claim); // over the kubelet's gRPC
    assertThat(node.containerEdits(prepared, claim).env()).contains("GPU=gpu-0"); // what CDI gives
    assertThat(node.unprepare("gpu.example.com", claim).isSuccess()).isTrue();
  }
}
// README:end
