package io.github.dra4j.lifecycle;

import static io.github.dra4j.testing.kubelet.KubeletClient.claim;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.kubelet.wire.dra.v1.Claim;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourceResponse;
import io.github.dra4j.kubeletplugin.CallContext;
import io.github.dra4j.kubeletplugin.DraDriver;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.kubeletplugin.PluginContext;
import io.github.dra4j.kubeletplugin.PrepareResult;
import io.github.dra4j.kubeletplugin.UnprepareResult;
import io.github.dra4j.kubeletplugin.testsupport.ClaimFixtures;
import io.github.dra4j.kubeletplugin.testsupport.PluginTestBase;
import io.github.dra4j.kubeletplugin.testsupport.TestPlugins;
import io.github.dra4j.resourceclaim.ClaimReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A prepare after a restart, when the checkpoint the restarted plugin read at its start changed
 * behind it: the pod of the old driver version, still serving during a rolling update,
 * unprepared a claim, and the kubelet then prepares it again through the new pod. The new pod's
 * lifecycle still holds the claim as prepared ({@code isPrepared}), so the plugin hands it over
 * with its metadata only; the claim must still go through the driver once in that call, read
 * from the API server by the lifecycle itself, not be failed and handed over a second time.
 */
class RestartedPrepareTest extends PluginTestBase {

  private Path cdi;
  private Path bootId;
  private CountingHardware hardware;

  @BeforeEach
  void setUp() throws Exception {
    cdi = Files.createDirectories(root.resolve("cdi"));
    bootId = root.resolve("boot_id");
    Files.writeString(bootId, "boot-1\n");
    hardware = new CountingHardware(root.resolve("hardware.json"));
  }

  /** The lifecycle as the plugin sees it, recording the claims of each prepare call. */
  private static final class RecordingCalls implements DraDriver {
    private final DraDriver lifecycle;
    private final List<List<String>> prepares = new CopyOnWriteArrayList<>();

    RecordingCalls(DraDriver lifecycle) {
      this.lifecycle = lifecycle;
    }

    @Override
    public Map<String, PrepareResult> prepareResourceClaims(List<ResourceClaim> claims,
        CallContext context) throws Exception {
      prepares.add(claims.stream().map(c -> c.getMetadata().getName()).toList());
      return lifecycle.prepareResourceClaims(claims, context);
    }

    @Override
    public Map<String, UnprepareResult> unprepareResourceClaims(List<ClaimReference> claims,
        CallContext context) throws Exception {
      return lifecycle.unprepareResourceClaims(claims, context);
    }

    @Override
    public boolean isPrepared(ClaimReference claim) {
      return lifecycle.isPrepared(claim);
    }

    @Override
    public void start(PluginContext plugin) throws Exception {
      lifecycle.start(plugin);
    }

    @Override
    public void stop() {
      lifecycle.stop();
    }
  }

  /** A driver pod of a rolling update: its own sockets, the node's checkpoint and CDI specs. */
  private KubeletPlugin pod(String podUid, DraDriver driver) {
    return TestPlugins.builder(driver, client, root).rollingUpdate(podUid).start();
  }

  private ClaimLifecycle<CountingGpuDriver.State> lifecycle(CountingGpuDriver driver) {
    return ClaimLifecycle.builder(driver, CountingGpuDriver.State.class)
        .bootIdSource(bootId).cdiDirectory(cdi).goneClaimCheckInterval(Duration.ZERO).build();
  }

  @Test
  void aClaimTheOldPodUnpreparedAfterTheNewOneStartedGoesThroughTheDriverOnce()
      throws Exception {
    ResourceClaim stored = ClaimFixtures.store(client,
        ClaimFixtures.allocated("default", "moved", TestPlugins.DRIVER));
    String uid = stored.getMetadata().getUid();
    Claim ref = claim("default", "moved", uid);
    CountingGpuDriver oldDriver = new CountingGpuDriver(hardware);
    CountingGpuDriver newDriver = new CountingGpuDriver(hardware);
    RecordingCalls newCalls = new RecordingCalls(lifecycle(newDriver));

    try (KubeletPlugin oldPod = pod("pod-old", lifecycle(oldDriver))) {
      assertThat(kubelet.prepare(oldPod.draSocket(), ref).getClaimsOrThrow(uid).getError())
          .isEmpty();
      try (KubeletPlugin newPod = pod("pod-new", newCalls)) {
        // The new pod read the checkpoint at its start: it holds the claim as prepared.
        assertThat(newCalls.isPrepared(new ClaimReference("default", "moved", uid))).isTrue();
        assertThat(kubelet.unprepare(oldPod.draSocket(), ref).getClaimsOrThrow(uid).getError())
            .isEmpty();

        NodePrepareResourceResponse again = kubelet.prepare(newPod.draSocket(), ref)
            .getClaimsOrThrow(uid);

        assertThat(again.getError()).isEmpty();
        assertThat(again.getDevicesList()).hasSize(1);
        assertThat(newCalls.prepares).as("claims of each prepare call of the new pod's driver")
            .containsExactly(List.of("moved"));
      }
    }
    assertThat(oldDriver.calls()).containsExactly("prepare moved", "unprepare moved note-moved");
    assertThat(newDriver.calls()).containsExactly("prepare moved");
    assertThat(hardware.counts()).containsExactly(Map.entry("gpu-0", 1));
  }
}
