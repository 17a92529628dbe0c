package io.github.dra4j.testing.kubelet;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The kubelet deletes the ResourceSlices of its node when it starts. */
class SliceWipeTest extends NodeTest {

  @Test
  void startWipesAllSlicesOfTheNodeUnlessTurnedOff() {
    node.sampleSlices();
    node.kubelet(b -> b.wipeOnStart(false)).close();
    assertThat(node.sliceNames()).containsExactly("a", "b", "c", "d");

    FakeKubelet kubelet = node.kubelet();

    assertThat(node.sliceNames()).containsExactly("c", "d");
    assertThat(kubelet.wipes()).singleElement().satisfies(wipe -> {
      assertThat(wipe.reason()).isEqualTo(SliceWipe.Reason.KUBELET_START);
      assertThat(wipe.driver()).isNull();
      assertThat(wipe.fieldSelector()).isEqualTo("spec.nodeName=node-1");
      assertThat(wipe.isSuccess()).isTrue();
    });
    assertThat(node.sliceDeleteCollections()).isEqualTo(1);
  }
}
