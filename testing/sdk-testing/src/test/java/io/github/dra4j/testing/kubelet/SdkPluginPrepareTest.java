package io.github.dra4j.testing.kubelet;

import static io.github.dra4j.testing.kubelet.Poll.LONG;
import static io.github.dra4j.testing.kubelet.TestNode.DRIVER;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.dra4j.kubelet.wire.dra.v1.Claim;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourcesRequest;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourcesResponse;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.resourceclaim.ClaimReference;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Prepare and unprepare through the fake kubelet with SDK plugins, over v1 and v1beta1. */
class SdkPluginPrepareTest extends SdkPluginNodeTest {

  private FakeKubelet kubelet;

  @BeforeEach
  void start() {
    kubelet = node.kubelet();
  }

  private KubeletPlugin registeredPlugin(TestDriver driver, boolean v1) {
    KubeletPlugin plugin = startPlugin(plugin(driver).services(s -> s.withNodeV1(v1)));
    kubelet.awaitRegistered(plugin.registrationSocket(), LONG);
    return plugin;
  }

  @Test
  void preparesAndUnpreparesOverV1WithShareIds() {
    TestDriver driver = new TestDriver(DRIVER);
    KubeletPlugin plugin = registeredPlugin(driver, true);
    ClaimReference claim = node.claim("gpu-claim");

    PrepareOutcome prepared = kubelet.prepare(DRIVER, claim);

    assertThat(prepared.error()).isNull();
    assertThat(prepared.isSuccess()).isTrue();
    assertThat(prepared.plugin().service()).isEqualTo(DraService.V1);
    assertThat(prepared.plugin().endpoint()).isEqualTo(plugin.draSocket().toString());
    assertThat(prepared.devices(claim.uid())).containsExactly(new PrepareOutcome.Device(
        List.of("gpu"), TestNode.NODE, "gpu-0",
        List.of("example.com/gpu=" + claim.uid() + "-gpu-0"),
        "share-gpu-0"));

    UnprepareOutcome unprepared = kubelet.unprepare(DRIVER, claim);

    assertThat(unprepared.isSuccess()).isTrue();
    assertThat(unprepared.result(claim.uid())).isEqualTo(new UnprepareOutcome.ClaimResult(null));
    assertThat(driver.calls())
        .containsExactly("prepare:" + claim.uid(), "unprepare:" + claim.uid());
    assertThat(kubelet.calls().entries(KubeletMethod.NODE_PREPARE_RESOURCES)).singleElement()
        .satisfies(call -> {
          assertThat(call.service()).isEqualTo("k8s.io.kubelet.pkg.apis.dra.v1.DRAPlugin");
          assertThat(call.target()).isEqualTo(plugin.draSocket().toString());
          assertThat(call.driver()).isEqualTo(DRIVER);
          assertThat(call.request()).isEqualTo(NodePrepareResourcesRequest.newBuilder()
              .addClaims(Claim.newBuilder().setNamespace("default").setName("gpu-claim")
                  .setUid(claim.uid()))
              .build());
          assertThat(((NodePrepareResourcesResponse) call.response()).getClaimsMap())
              .containsOnlyKeys(claim.uid());
        });
  }

  @Test
  void preparesAndUnpreparesOverV1beta1WithoutShareIds() {
    TestDriver driver = new TestDriver(DRIVER);
    registeredPlugin(driver, false);
    ClaimReference claim = node.claim("gpu-claim");

    PrepareOutcome prepared = kubelet.prepare(DRIVER, claim);

    assertThat(prepared.isSuccess()).isTrue();
    assertThat(prepared.plugin().service()).isEqualTo(DraService.V1BETA1);
    assertThat(prepared.devices(claim.uid())).singleElement().satisfies(device -> {
      assertThat(device.cdiDeviceIds())
          .containsExactly("example.com/gpu=" + claim.uid() + "-gpu-0");
      assertThat(device.shareId()).isNull();
    });
    assertThat(kubelet.unprepare(DRIVER, claim).isSuccess()).isTrue();
    assertThat(driver.calls())
        .containsExactly("prepare:" + claim.uid(), "unprepare:" + claim.uid());
    assertThat(kubelet.calls().entries(KubeletMethod.NODE_UNPREPARE_RESOURCES)).singleElement()
        .satisfies(call -> {
          assertThat(call.service())
              .isEqualTo("k8s.io.kubelet.pkg.apis.dra.v1beta1.DRAPlugin");
          assertThat(call.request()).isInstanceOf(
              io.github.dra4j.kubelet.wire.dra.v1beta1.NodeUnprepareResourcesRequest.class);
        });
  }

  @Test
  void aFailedClaimFailsTheCallWithTheKubeletsText() {
    registeredPlugin(new TestDriver(DRIVER), true);
    ClaimReference good = node.claim("good");
    ClaimReference bad = node.claim("fail-me");

    PrepareOutcome prepared = kubelet.prepare(DRIVER, good, bad);

    assertThat(prepared.error())
        .isEqualTo("NodePrepareResources failed for ResourceClaim fail-me: cannot prepare fail-me");
    assertThat(prepared.devices(good.uid())).hasSize(1);
    assertThat(prepared.result(bad.uid()).error()).isEqualTo("cannot prepare fail-me");

    UnprepareOutcome unprepared = kubelet.unprepare(DRIVER, good, bad);

    assertThat(unprepared.error()).isEqualTo(
        "NodeUnprepareResources failed for ResourceClaim fail-me: cannot unprepare fail-me");
    assertThat(unprepared.result(good.uid()).isFailed()).isFalse();
  }

  @Test
  void aFailedCallGivesTheGrpcErrorText() {
    registeredPlugin(new TestDriver(DRIVER), true);
    ClaimReference boom = node.claim("boom");

    PrepareOutcome prepared = kubelet.prepare(DRIVER, boom);

    assertThat(prepared.error()).startsWith("rpc error: code = Unknown desc = ")
        .endsWith("driver exploded on boom");
    assertThat(prepared.results()).isEmpty();
    assertThat(kubelet.calls().entries(KubeletMethod.NODE_PREPARE_RESOURCES)).singleElement()
        .satisfies(call -> {
          assertThat(call.isSuccess()).isFalse();
          assertThat(call.response()).isNull();
        });
  }
}
