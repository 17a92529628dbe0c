package io.github.dra4j.testing.kubelet;

import static io.github.dra4j.testing.kubelet.Poll.LONG;
import static io.github.dra4j.testing.kubelet.TestNode.DRIVER;
import static io.github.dra4j.testing.kubelet.TestNode.NODE;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.resourceclaim.ClaimReference;
import io.github.dra4j.testing.apiserver.ApiVerb;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** When the kubelet deletes ResourceSlices: at (re)start, and after a driver became unusable. */
class SliceWipeTest extends NodeTest {

  private static final String OTHER = "other.example.com";

  /** a: ours here; b: another driver here; c: ours on another node; d: ours on all nodes. */
  private void slices() {
    node.slice("a", DRIVER, NODE);
    node.slice("b", OTHER, NODE);
    node.slice("c", DRIVER, "node-2");
    node.slice("d", DRIVER, null);
  }

  private long deleteCollections() {
    return node.api.countRequests(r -> r.is(ApiVerb.DELETE_COLLECTION, "resourceslices"));
  }

  @Test
  void startWipesAllSlicesOfTheNodeUnlessTurnedOff() {
    slices();
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
    assertThat(deleteCollections()).isEqualTo(1);
  }

  @Test
  void restartWipesTheNodeAndRegistersThePluginsAgain() {
    FakeKubelet kubelet = node.kubelet();
    KubeletPlugin plugin = node.start(node.plugin(new TestDriver(DRIVER)));
    kubelet.awaitRegistered(plugin.registrationSocket(), LONG);
    slices();

    kubelet.restart();

    assertThat(node.sliceNames()).containsExactly("c", "d");
    assertThat(kubelet.wipes()).extracting(SliceWipe::reason)
        .containsExactly(SliceWipe.Reason.KUBELET_START, SliceWipe.Reason.KUBELET_START);
    kubelet.awaitRegistered(plugin.registrationSocket(), LONG);
    assertThat(kubelet.plugins(DRIVER)).hasSize(1);
    assertThat(kubelet.calls().entries(KubeletMethod.GET_INFO)).hasSize(2);
    ClaimReference claim = node.claim("after-restart");
    assertThat(kubelet.prepare(DRIVER, claim).isSuccess()).isTrue();
  }

  @Test
  void slicesOfADriverGoAfterTheDelayWithoutAnInstance() {
    FakeKubelet kubelet = node.kubelet(b -> b.wipingDelay(Duration.ofMillis(300)));
    KubeletPlugin plugin = node.start(node.plugin(new TestDriver(DRIVER)));
    kubelet.awaitRegistered(plugin.registrationSocket(), LONG);
    slices();
    long before = deleteCollections();

    plugin.close();

    Poll.until(LONG, () -> assertThat(node.sliceNames()).containsExactly("b", "c", "d"));
    // the wipe is recorded once the DeleteCollection call has returned, a moment after the
    // slices are gone
    Poll.until(LONG, () -> assertThat(kubelet.wipes()).hasSize(2));
    assertThat(kubelet.wipes()).last().satisfies(wipe -> {
      assertThat(wipe.reason()).isEqualTo(SliceWipe.Reason.DRIVER_UNUSABLE);
      assertThat(wipe.driver()).isEqualTo(DRIVER);
      assertThat(wipe.fieldSelector())
          .isEqualTo("spec.nodeName=node-1,spec.driver=gpu.example.com");
    });
    assertThat(deleteCollections()).isEqualTo(before + 1);
    assertThat(kubelet.pendingWipes()).isEmpty();
  }

  @Test
  void anInstanceBackInTimeCancelsTheWipe() {
    Duration delay = Duration.ofSeconds(5);
    FakeKubelet kubelet = node.kubelet(b -> b.wipingDelay(delay));
    KubeletPlugin first = node.start(node.plugin(new TestDriver(DRIVER)));
    kubelet.awaitRegistered(first.registrationSocket(), LONG);
    slices();

    first.close();
    Poll.until(LONG, () -> assertThat(kubelet.pendingWipes()).containsExactly(DRIVER));
    KubeletPlugin second = node.start(node.plugin(new TestDriver(DRIVER)));
    kubelet.awaitRegistered(second.registrationSocket(), LONG);

    assertThat(kubelet.pendingWipes()).isEmpty();
    Poll.holdsFor(delay.plusMillis(500),
        () -> assertThat(node.sliceNames()).containsExactly("a", "b", "c", "d"));
    assertThat(kubelet.wipes()).extracting(SliceWipe::reason)
        .containsExactly(SliceWipe.Reason.KUBELET_START);
  }

  @Test
  void withoutAClientNothingIsWiped() {
    slices();
    FakeKubelet kubelet = node.own(FakeKubelet.builder().registryDirectory(node.registry)
        .nodeName(NODE).wipingDelay(Duration.ofMillis(100)).start());
    KubeletPlugin plugin = node.start(node.plugin(new TestDriver(DRIVER)));
    kubelet.awaitRegistered(plugin.registrationSocket(), LONG);

    kubelet.restart();
    plugin.close();
    kubelet.awaitDeregistered(plugin.registrationSocket(), LONG);

    assertThat(kubelet.pendingWipes()).isEmpty();
    assertThat(kubelet.wipes()).isEmpty();
    assertThat(node.sliceNames()).containsExactly("a", "b", "c", "d");
  }
}
