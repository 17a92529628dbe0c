package io.github.dra4j.testing.kubelet;

import static io.github.dra4j.testing.kubelet.Poll.LONG;
import static io.github.dra4j.testing.kubelet.TestNode.DRIVER;
import static io.github.dra4j.testing.kubelet.TestNode.NODE;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.resourceclaim.ClaimReference;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * When the kubelet deletes the ResourceSlices of SDK plugins: at its restart, and after the last
 * instance of a driver stopped.
 */
class SdkPluginSliceWipeTest extends SdkPluginNodeTest {

  @Test
  void restartWipesTheNodeAndRegistersThePluginsAgain() {
    FakeKubelet kubelet = node.kubelet();
    KubeletPlugin plugin = startPlugin(plugin(new TestDriver(DRIVER)));
    kubelet.awaitRegistered(plugin.registrationSocket(), LONG);
    node.sampleSlices();

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
    KubeletPlugin plugin = startPlugin(plugin(new TestDriver(DRIVER)));
    kubelet.awaitRegistered(plugin.registrationSocket(), LONG);
    node.sampleSlices();
    long before = node.sliceDeleteCollections();

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
    assertThat(node.sliceDeleteCollections()).isEqualTo(before + 1);
    assertThat(kubelet.pendingWipes()).isEmpty();
  }

  @Test
  void anInstanceBackInTimeCancelsTheWipe() {
    Duration delay = Duration.ofSeconds(5);
    FakeKubelet kubelet = node.kubelet(b -> b.wipingDelay(delay));
    KubeletPlugin first = startPlugin(plugin(new TestDriver(DRIVER)));
    kubelet.awaitRegistered(first.registrationSocket(), LONG);
    node.sampleSlices();

    first.close();
    Poll.until(LONG, () -> assertThat(kubelet.pendingWipes()).containsExactly(DRIVER));
    KubeletPlugin second = startPlugin(plugin(new TestDriver(DRIVER)));
    kubelet.awaitRegistered(second.registrationSocket(), LONG);

    assertThat(kubelet.pendingWipes()).isEmpty();
    Poll.holdsFor(delay.plusMillis(500),
        () -> assertThat(node.sliceNames()).containsExactly("a", "b", "c", "d"));
    assertThat(kubelet.wipes()).extracting(SliceWipe::reason)
        .containsExactly(SliceWipe.Reason.KUBELET_START);
  }

  @Test
  void withoutAClientNothingIsWiped() {
    node.sampleSlices();
    FakeKubelet kubelet = node.own(FakeKubelet.builder().registryDirectory(node.registry)
        .nodeName(NODE).wipingDelay(Duration.ofMillis(100)).start());
    KubeletPlugin plugin = startPlugin(plugin(new TestDriver(DRIVER)));
    kubelet.awaitRegistered(plugin.registrationSocket(), LONG);

    kubelet.restart();
    plugin.close();
    kubelet.awaitDeregistered(plugin.registrationSocket(), LONG);

    assertThat(kubelet.pendingWipes()).isEmpty();
    assertThat(kubelet.wipes()).isEmpty();
    assertThat(node.sliceNames()).containsExactly("a", "b", "c", "d");
  }
}
