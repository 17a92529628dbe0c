package io.github.dra4j.testing.readme;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.testing.junit.DraTest;
import io.github.dra4j.testing.kubelet.PrepareOutcome;
import io.github.dra4j.testing.node.OpaqueConfig;
import io.github.dra4j.testing.node.SimulatedNode;
import io.github.dra4j.testing.webhook.AdmissionResult;
import io.github.dra4j.testing.webhook.AdmissionReviews;
import io.github.dra4j.webhook.AdmissionReviewHandler;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The README driver's configuration, end to end: the plugin applies what the claim asks for, and
 * the webhook and the plugin refuse the same invalid configuration with the same words, naming
 * the entry where the user wrote it.
 */
@DraTest(driver = ExampleGpuDriverSetup.class)
class ExampleGpuConfigTest {

  private static final String API = "gpu.example.com/v1alpha1";
  private static final String SELECTOR = "device.driver == \"gpu.example.com\"";

  private static OpaqueConfig gpuConfig(String fields, String... requests) {
    return OpaqueConfig.of(ExampleGpuDriver.NAME, API, "GpuConfig", fields, requests);
  }

  @Test
  void theClaimsConfigurationReachesTheContainer(SimulatedNode node) {
    node.createDeviceClass("gpu", SELECTOR);
    ResourceClaim claim = node.allocate(node.createClaim("default", "shared", "gpu", "gpu", 1,
        gpuConfig("{\"sharing\": \"SpacePartitioning\", \"partitions\": 4}", "gpu")));

    PrepareOutcome prepared = node.prepare(ExampleGpuDriver.NAME, claim);

    assertThat(node.containerEdits(prepared, claim).env())
        .contains("GPU=gpu-0", "GPU_SHARING=SpacePartitioning");
  }

  @Test
  void withoutAConfigurationTheDriversDefaultApplies(SimulatedNode node) {
    node.createDeviceClass("gpu", SELECTOR);
    ResourceClaim claim = node.allocate(node.createClaim("default", "plain", "gpu", "gpu", 1));

    PrepareOutcome prepared = node.prepare(ExampleGpuDriver.NAME, claim);

    assertThat(node.containerEdits(prepared, claim).env()).contains("GPU_SHARING=TimeSlicing");
  }

  @Test
  void theWebhookAndThePluginNameTheClaimsOwnEntryWhenTheClassHasAConfigurationToo(
      SimulatedNode node) {
    // The class's entry comes first in the allocation's status, so the claim's entry 0 is the
    // status's entry 1; both sides name the entry the user wrote.
    node.createDeviceClass("gpu", List.of(gpuConfig("{\"sharing\": \"TimeSlicing\"}")),
        SELECTOR);
    OpaqueConfig bad = gpuConfig("{\"partitions\": 2}", "gpu");
    ResourceClaim claim = node.createClaim("default", "bad", "gpu", "gpu", 1, bad);

    AdmissionResult admission = AdmissionResult.read(AdmissionReviewHandler.of(
        ExampleGpuDriver.NAME, GpuConfig.SCHEME).handle(AdmissionReviews.create(claim))
        .response());
    ResourceClaim allocated = node.allocate(claim);
    PrepareOutcome prepared = node.prepare(ExampleGpuDriver.NAME, allocated);

    assertThat(allocated.getStatus().getAllocation().getDevices().getConfig()).hasSize(2);
    assertThat(admission.allowed()).isFalse();
    assertThat(admission.code()).isEqualTo(422);
    assertThat(admission.fields())
        .containsExactly("spec.devices.config[0].opaque.parameters.partitions");
    assertThat(admission.message()).contains("ResourceClaim default/bad",
        "spec.devices.config[0].opaque.parameters.partitions: only with sharing"
            + " SpacePartitioning");
    String error = prepared.result(allocated.getMetadata().getUid()).error();
    assertThat(error).contains("ResourceClaim spec.devices.config[0].opaque.parameters.partitions:"
        + " only with sharing SpacePartitioning").doesNotContain("status.allocation");
  }

  @Test
  void aBadEntryOfTheDeviceClassIsNamedByTheClass(SimulatedNode node) {
    node.createDeviceClass("gpu", List.of(gpuConfig("{\"partitions\": 0,"
        + " \"sharing\": \"SpacePartitioning\"}")), SELECTOR);
    ResourceClaim claim = node.allocate(node.createClaim("default", "c", "gpu", "gpu", 1));

    PrepareOutcome prepared = node.prepare(ExampleGpuDriver.NAME, claim);

    assertThat(prepared.result(claim.getMetadata().getUid()).error()).contains(
        "DeviceClass gpu spec.config[0].opaque.parameters.partitions: must be at least 1, got 0");
  }
}
