package io.github.dra4j.resourceclaim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ClaimReferenceTest {

  @Test
  void printsLikeKubernetesMessages() {
    ClaimReference claim = new ClaimReference("default", "gpu-claim", "1234");
    assertThat(claim.namespacedName()).isEqualTo("default/gpu-claim");
    assertThat(claim).hasToString("default/gpu-claim:1234");
    assertThat(new ClaimReference("default", "gpu-claim", "")).hasToString("default/gpu-claim");
  }

  @Test
  void rejectsNullsByFieldName() {
    assertThatThrownBy(() -> new ClaimReference(null, "n", "u")).hasMessage("namespace");
    assertThatThrownBy(() -> new ClaimReference("ns", null, "u")).hasMessage("name");
    assertThatThrownBy(() -> new ClaimReference("ns", "n", null)).hasMessage("uid");
  }
}
