package io.github.dra4j.kubeletplugin;

import static io.github.dra4j.kubeletplugin.testsupport.TestPlugins.DRIVER;
import static io.github.dra4j.testing.kubelet.KubeletClient.claim;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.cdi.spec.CdiSpec;
import io.github.dra4j.kubelet.wire.dra.v1.Device;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourceResponse;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourcesResponse;
import io.github.dra4j.kubelet.wire.dra.v1beta1.Claim;
import io.github.dra4j.kubelet.wire.dra.v1beta1.NodePrepareResourcesRequest;
import io.github.dra4j.kubelet.wire.dra.v1beta1.NodeUnprepareResourcesRequest;
import io.github.dra4j.kubeletplugin.testsupport.ClaimFixtures;
import io.github.dra4j.kubeletplugin.testsupport.PluginTestBase;
import io.github.dra4j.kubeletplugin.testsupport.RecordingDriver;
import io.github.dra4j.kubeletplugin.testsupport.TestPlugins;
import io.github.dra4j.testing.kubelet.KubeletClient;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PrepareTest extends PluginTestBase {

  private RecordingDriver driver;
  private KubeletPlugin plugin;

  @BeforeEach
  void start() {
    driver = new RecordingDriver(DRIVER);
    plugin = TestPlugins.builder(driver, client, root).start();
  }

  @AfterEach
  void stop() {
    plugin.close();
  }

  private ResourceClaim stored(String name) {
    return ClaimFixtures.store(client, ClaimFixtures.allocated("default", name, DRIVER));
  }

  @Test
  void preparesAndUnpreparesOverV1() {
    ResourceClaim claim = stored("gpu-claim");
    String uid = claim.getMetadata().getUid();

    NodePrepareResourcesResponse prepared = kubelet.prepare(plugin.draSocket(),
        claim("default", "gpu-claim", uid));

    assertThat(prepared.getClaimsMap()).containsOnlyKeys(uid);
    NodePrepareResourceResponse answer = prepared.getClaimsOrThrow(uid);
    assertThat(answer.getError()).isEmpty();
    assertThat(answer.getDevicesList()).singleElement().satisfies(device -> {
      assertThat(device.getPoolName()).isEqualTo("node-1");
      assertThat(device.getDeviceName()).isEqualTo("gpu-0");
      assertThat(device.getRequestNamesList()).containsExactly("gpu");
      assertThat(device.getCdiDeviceIdsList()).containsExactly("example.com/gpu=" + uid + "-gpu-0");
      assertThat(device.hasShareId()).isFalse();
    });

    assertThat(kubelet.unprepare(plugin.draSocket(), claim("default", "gpu-claim", uid))
        .getClaimsOrThrow(uid).getError())
        .isEmpty();
    assertThat(driver.calls()).extracting(RecordingDriver.Call::operation)
        .containsExactly("prepare", "unprepare");
    assertThat(driver.calls().get(0).claimUids()).containsExactly(uid);
  }

  @Test
  void preparesAndUnpreparesOverV1beta1WithTheSameHandler() {
    ResourceClaim claim = stored("beta-claim");
    String uid = claim.getMetadata().getUid();
    Claim wire = Claim.newBuilder().setNamespace("default").setName("beta-claim").setUid(uid)
        .build();

    var prepared = kubelet.draV1beta1(plugin.draSocket())
        .nodePrepareResources(NodePrepareResourcesRequest.newBuilder().addClaims(wire).build());
    var unprepared = kubelet.draV1beta1(plugin.draSocket())
        .nodeUnprepareResources(NodeUnprepareResourcesRequest.newBuilder().addClaims(wire).build());

    assertThat(prepared.getClaimsOrThrow(uid).getDevicesList()).singleElement()
        .satisfies(d -> assertThat(d.getCdiDeviceIdsList())
            .containsExactly("example.com/gpu=" + uid + "-gpu-0"));
    assertThat(unprepared.getClaimsOrThrow(uid).getError()).isEmpty();
    assertThat(driver.calls()).extracting(RecordingDriver.Call::operation)
        .containsExactly("prepare", "unprepare");
  }

  @Test
  void shareIdGoesOutOverV1OnlyAndSubrequestNamesAreStripped() {
    driver.answering(c -> PrepareResult.prepared(
        PreparedDevice.builder("node-1", "gpu-0").request("gpu/small", "other")
            .cdiDeviceId("example.com/gpu=x").shareId("share-7").build()));
    ResourceClaim claim = stored("shared");
    String uid = claim.getMetadata().getUid();

    Device v1 = kubelet.prepare(plugin.draSocket(), claim("default", "shared", uid))
        .getClaimsOrThrow(uid).getDevices(0);
    var v1beta1 = kubelet.draV1beta1(plugin.draSocket())
        .nodePrepareResources(NodePrepareResourcesRequest.newBuilder()
            .addClaims(Claim.newBuilder().setNamespace("default").setName("shared").setUid(uid))
            .build())
        .getClaimsOrThrow(uid).getDevices(0);

    assertThat(v1.getRequestNamesList()).containsExactly("gpu", "other");
    assertThat(v1.hasShareId()).isTrue();
    assertThat(v1.getShareId()).isEqualTo("share-7");
    assertThat(v1beta1.getRequestNamesList()).containsExactly("gpu", "other");
    assertThat(v1beta1.getUnknownFields().asMap())
        .as("share_id (field 5) must not be sent over v1beta1").isEmpty();
  }

  @Test
  void anEmptyShareIdIsStillPresent() {
    driver.answering(c -> PrepareResult.prepared(
        PreparedDevice.builder("node-1", "gpu-0").shareId("").build()));
    String uid = stored("empty-share").getMetadata().getUid();

    Device device = kubelet.prepare(plugin.draSocket(), claim("default", "empty-share", uid))
        .getClaimsOrThrow(uid).getDevices(0);

    assertThat(device.hasShareId()).isTrue();
    assertThat(device.getRequestNamesList()).isEmpty();
  }

  @Test
  void claimProblemsFailOnlyThatClaimWithTheGoHelpersTexts() {
    String good = stored("good").getMetadata().getUid();
    ResourceClaim pending = ClaimFixtures.allocated("default", "pending", DRIVER);
    pending.setStatus(null);
    String pendingUid = ClaimFixtures.store(client, pending).getMetadata().getUid();
    stored("replaced");

    NodePrepareResourcesResponse response = kubelet.prepare(plugin.draSocket(),
        claim("default", "pending", pendingUid),
        claim("default", "replaced", "00000000-0000-0000-0000-000000000001"),
        claim("default", "missing", "00000000-0000-0000-0000-000000000002"),
        claim("default", "good", good));

    assertThat(response.getClaimsOrThrow(pendingUid).getError())
        .isEqualTo("get resource claims: claim default/pending not allocated");
    assertThat(response.getClaimsOrThrow("00000000-0000-0000-0000-000000000001").getError())
        .isEqualTo("get resource claims: claim default/replaced got replaced");
    assertThat(response.getClaimsOrThrow("00000000-0000-0000-0000-000000000002").getError())
        .isEqualTo("get resource claims: retrieve claim default/missing: "
            + "resourceclaims.resource.k8s.io \"missing\" not found");
    assertThat(response.getClaimsOrThrow(good).getError()).isEmpty();
    assertThat(response.getClaimsOrThrow(good).getDevicesCount()).isEqualTo(1);
    assertThat(driver.calls()).singleElement()
        .satisfies(call -> assertThat(call.claimUids()).containsExactly(good));
  }

  @Test
  void cdiDeviceIdsMayComeStraightFromTheSpecTheDriverWrote() {
    CdiSpec spec = CdiSpec.builder().kind("example.com/gpu")
        .device("gpu-0", e -> e.env("GPU", "0"))
        .device("gpu-1", e -> e.env("GPU", "1"))
        .build();
    driver.answering(c -> PrepareResult.prepared(PreparedDevice.builder("node-1", "gpu-0")
        .cdiDeviceId(spec.qualifiedDeviceNames().get(0))
        .cdiDeviceIds(spec.qualifiedDeviceNames().subList(1, 2))
        .cdiDeviceId("example.com/gpu=shared")
        .build()));
    String uid = stored("with-spec").getMetadata().getUid();

    Device device = kubelet.prepare(plugin.draSocket(), claim("default", "with-spec", uid))
        .getClaimsOrThrow(uid).getDevices(0);

    assertThat(device.getCdiDeviceIdsList()).containsExactly(
        "example.com/gpu=gpu-0", "example.com/gpu=gpu-1", "example.com/gpu=shared");
  }

  @Test
  void aClaimWithResultsOfSeveralDriversIsPassedWholeToTheDriver() {
    ResourceClaim claim = ClaimFixtures.allocated("default", "mixed", DRIVER);
    claim.getStatus().getAllocation().getDevices().getResults().add(
        new io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResultBuilder()
            .withRequest("nic").withDriver("nic.example.com").withPool("p").withDevice("eth1")
            .build());
    String uid = ClaimFixtures.store(client, claim).getMetadata().getUid();

    List<Device> devices = kubelet.prepare(plugin.draSocket(), claim("default", "mixed", uid))
        .getClaimsOrThrow(uid).getDevicesList();

    assertThat(devices).extracting(Device::getDeviceName).containsExactly("gpu-0");
  }

  @Test
  void withTheClaimCacheClaimsStillPrepareAndProblemsKeepTheirTexts() {
    plugin.close();
    plugin = TestPlugins.builder(driver, client, root).apiServer(a -> a.withClaimCache(true))
        .start();
    String uid = stored("cached").getMetadata().getUid();
    ResourceClaim pending = ClaimFixtures.allocated("default", "never-allocated", DRIVER);
    pending.setStatus(null);
    String pendingUid = ClaimFixtures.store(client, pending).getMetadata().getUid();

    NodePrepareResourcesResponse response = kubelet.prepare(plugin.draSocket(),
        claim("default", "cached", uid), claim("default", "never-allocated", pendingUid));

    assertThat(response.getClaimsOrThrow(uid).getDevicesCount()).isEqualTo(1);
    assertThat(response.getClaimsOrThrow(pendingUid).getError())
        .isEqualTo("get resource claims: claim default/never-allocated not allocated");
  }
}
