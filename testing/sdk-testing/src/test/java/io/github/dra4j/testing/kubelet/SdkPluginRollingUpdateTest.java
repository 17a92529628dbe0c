package io.github.dra4j.testing.kubelet;

import static io.github.dra4j.testing.kubelet.Poll.LONG;
import static io.github.dra4j.testing.kubelet.TestNode.DRIVER;
import static io.github.dra4j.testing.kubelet.TestNode.NODE;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.resourceclaim.ClaimReference;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** SDK plugin instances of one driver: which one the kubelet calls, and handover on upgrade. */
class SdkPluginRollingUpdateTest extends SdkPluginNodeTest {

  private FakeKubelet kubelet;

  @BeforeEach
  void start() {
    kubelet = node.kubelet(b -> b.wipingDelay(Duration.ofMillis(300)));
  }

  @Test
  void callsGoToTheNewestInstanceAndBackToTheOlderWhenItStops() {
    node.slice("node-slice", DRIVER, NODE);
    TestDriver oldDriver = new TestDriver(DRIVER);
    TestDriver newDriver = new TestDriver(DRIVER);
    KubeletPlugin older = startPlugin(plugin(oldDriver).rollingUpdate("pod-a"));
    kubelet.awaitRegistered(older.registrationSocket(), LONG);
    KubeletPlugin newer = startPlugin(plugin(newDriver).rollingUpdate("pod-b"));
    kubelet.awaitRegistered(newer.registrationSocket(), LONG);
    ClaimReference claim = node.claim("shared-claim");

    assertThat(kubelet.plugins(DRIVER)).extracting(RegisteredPlugin::endpoint)
        .containsExactly(older.draSocket().toString(), newer.draSocket().toString());
    PrepareOutcome prepared = kubelet.prepare(DRIVER, claim);

    assertThat(prepared.isSuccess()).isTrue();
    assertThat(prepared.plugin().endpoint()).isEqualTo(newer.draSocket().toString());
    assertThat(newDriver.calls()).containsExactly("prepare:" + claim.uid());
    assertThat(oldDriver.calls()).isEmpty();

    newer.close();
    kubelet.awaitDeregistered(newer.registrationSocket(), LONG);
    UnprepareOutcome unprepared = kubelet.unprepare(DRIVER, claim);

    assertThat(unprepared.isSuccess()).isTrue();
    assertThat(unprepared.plugin().endpoint()).isEqualTo(older.draSocket().toString());
    assertThat(oldDriver.calls()).containsExactly("unprepare:" + claim.uid());
    assertThat(kubelet.pendingWipes()).isEmpty();
    Poll.holdsFor(Duration.ofMillis(1500),
        () -> assertThat(node.sliceNames()).containsExactly("node-slice"));
    assertThat(kubelet.wipes()).extracting(SliceWipe::reason)
        .containsExactly(SliceWipe.Reason.KUBELET_START);
  }

  @Test
  void aNewerInstanceThatIsNotConnectedIsPassedOver() {
    TestDriver driver = new TestDriver(DRIVER);
    KubeletPlugin connected = startPlugin(plugin(driver));
    kubelet.awaitRegistered(connected.registrationSocket(), LONG);
    Path unreachable = node.data.resolve("nobody-listens.sock");
    node.own(RawPlugin.serve(node.registry.resolve("late.sock"),
        RawPlugin.info(DRIVER, unreachable, "v1.DRAPlugin")));
    kubelet.awaitPlugins(all -> all.size() == 2, LONG);
    ClaimReference claim = node.claim("c");

    assertThat(kubelet.plugins(DRIVER)).last()
        .satisfies(p -> assertThat(p.connected()).isFalse());
    PrepareOutcome outcome = kubelet.prepare(DRIVER, claim);

    assertThat(outcome.plugin().endpoint()).isEqualTo(connected.draSocket().toString());
    assertThat(outcome.isSuccess()).isTrue();
    assertThat(driver.calls()).containsExactly("prepare:" + claim.uid());
  }
}
