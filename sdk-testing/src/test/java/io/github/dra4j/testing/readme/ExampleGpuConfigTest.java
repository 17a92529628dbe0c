package io.github.dra4j.testing.readme;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.github.dra4j.testing.junit.DraTest;
import io.github.dra4j.testing.kubelet.PrepareOutcome;
import io.github.dra4j.testing.node.SimulatedNode;
import io.github.dra4j.webhook.AdmissionDecision;
import io.github.dra4j.webhook.AdmissionReviewHandler;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * The README driver's configuration, end to end: the plugin applies what the claim asks for, and
 * the webhook and the plugin refuse the same invalid configuration with the same words.
 */
@DraTest(driver = ExampleGpuDriverSetup.class)
class ExampleGpuConfigTest {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  @Test
  void theClaimsConfigurationReachesTheContainer(SimulatedNode node) {
    node.createDeviceClass("gpu", "device.driver == \"gpu.example.com\"");
    ResourceClaim claim = node.allocate(node.createClaim(claim("shared", Map.of(
        "apiVersion", "gpu.example.com/v1alpha1", "kind", "GpuConfig",
        "sharing", "SpacePartitioning", "partitions", 4))));

    PrepareOutcome prepared = node.prepare(ExampleGpuDriver.NAME, claim);

    assertThat(node.containerEdits(prepared, claim).env())
        .contains("GPU=gpu-0", "GPU_SHARING=SpacePartitioning");
  }

  @Test
  void withoutAConfigurationTheDriversDefaultApplies(SimulatedNode node) {
    node.createDeviceClass("gpu", "device.driver == \"gpu.example.com\"");
    ResourceClaim claim = node.allocate(node.createClaim("default", "plain", "gpu", "gpu", 1));

    PrepareOutcome prepared = node.prepare(ExampleGpuDriver.NAME, claim);

    assertThat(node.containerEdits(prepared, claim).env()).contains("GPU_SHARING=TimeSlicing");
  }

  @Test
  void theWebhookAndThePluginRefuseTheSameConfiguration(SimulatedNode node) {
    node.createDeviceClass("gpu", "device.driver == \"gpu.example.com\"");
    ResourceClaim claim = claim("bad", Map.of("apiVersion", "gpu.example.com/v1alpha1",
        "kind", "GpuConfig", "partitions", 2));

    AdmissionDecision decision = AdmissionReviewHandler.of(ExampleGpuDriver.NAME,
        GpuConfig.SCHEME).handle(review(claim));
    ResourceClaim allocated = node.allocate(node.createClaim(claim));
    PrepareOutcome prepared = node.prepare(ExampleGpuDriver.NAME, allocated);

    assertThat(decision.allowed()).isFalse();
    assertThat(decision.problems()).singleElement().hasToString(
        "spec.devices.config[0].opaque.parameters.partitions: only with sharing SpacePartitioning");
    String error = prepared.result(allocated.getMetadata().getUid()).error();
    assertThat(error).contains("status.allocation.devices.config[0].opaque.parameters.partitions: "
        + "only with sharing SpacePartitioning");
  }

  private static ResourceClaim claim(String name, Map<String, Object> parameters) {
    return new ResourceClaimBuilder()
        .withNewMetadata().withNamespace("default").withName(name).endMetadata()
        .withNewSpec().withNewDevices()
            .addNewRequest().withName("gpu").withNewExactly().withDeviceClassName("gpu")
                .withAllocationMode("ExactCount").withCount(1L).endExactly().endRequest()
            .addNewConfig().withRequests("gpu").withNewOpaque().withDriver(ExampleGpuDriver.NAME)
                .withParameters(parameters).endOpaque().endConfig()
        .endDevices().endSpec()
        .build();
  }

  /** The claim in an AdmissionReview, as the API server would send it on CREATE. */
  private static byte[] review(ResourceClaim claim) {
    String body = "{\"apiVersion\": \"admission.k8s.io/v1\", \"kind\": \"AdmissionReview\", "
        + "\"request\": {\"uid\": \"" + UUID.randomUUID() + "\", \"kind\": {\"group\": "
        + "\"resource.k8s.io\", \"version\": \"v1\", \"kind\": \"ResourceClaim\"}, "
        + "\"operation\": \"CREATE\", \"namespace\": \"default\", \"name\": \""
        + claim.getMetadata().getName() + "\", \"object\": " + JSON.writeValueAsString(claim)
        + "}}";
    return body.getBytes(StandardCharsets.UTF_8);
  }
}
