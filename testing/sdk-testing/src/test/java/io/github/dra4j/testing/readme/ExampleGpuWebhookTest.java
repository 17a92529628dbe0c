package io.github.dra4j.testing.readme;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.testing.node.OpaqueConfig;
import io.github.dra4j.testing.node.SimulatedNode;
import io.github.dra4j.testing.webhook.AdmissionResult;
import io.github.dra4j.testing.webhook.AdmissionReviews;
import io.github.dra4j.webhook.AdmissionDecision;
import io.github.dra4j.webhook.AdmissionReviewHandler;
import org.junit.jupiter.api.Test;

/** The README's webhook test, as it is shown there. */
// README:begin webhooktest
class ExampleGpuWebhookTest {
  @Test
  void refusesPartitionsWithTimeSlicing() {
    ResourceClaim claim = SimulatedNode.claim("default", "c", "gpu", "gpu", 1,
        OpaqueConfig.of(ExampleGpuDriver.NAME, "gpu.example.com/v1alpha1", "GpuConfig",
            "{\"partitions\": 2}", "gpu")); // as a user writes it
    AdmissionDecision decision = AdmissionReviewHandler.of(ExampleGpuDriver.NAME,
        GpuConfig.SCHEME).handle(AdmissionReviews.create(claim)); // as the API server asks
    AdmissionResult answer = AdmissionResult.read(decision.response()); // what kubectl shows
    assertThat(answer.allowed()).isFalse();
    assertThat(answer.fields())
        .containsExactly("spec.devices.config[0].opaque.parameters.partitions");
  }
}
// README:end
