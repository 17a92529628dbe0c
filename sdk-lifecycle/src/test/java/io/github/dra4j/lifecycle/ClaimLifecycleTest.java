package io.github.dra4j.lifecycle;

import static io.github.dra4j.kubeletplugin.testsupport.TestPlugins.DRIVER;
import static io.github.dra4j.testing.kubelet.KubeletClient.claim;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.github.dra4j.cdi.codec.SpecCodec;
import io.github.dra4j.cdi.spec.CdiSpec;
import io.github.dra4j.cdi.spec.ContainerEdits;
import io.github.dra4j.kubelet.wire.dra.v1.Claim;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourceResponse;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourcesResponse;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.lifecycle.internal.checkpoint.CheckpointData;
import io.github.dra4j.lifecycle.internal.checkpoint.CheckpointFile;
import io.github.dra4j.lifecycle.internal.checkpoint.ClaimEntry;
import io.github.dra4j.lifecycle.internal.checkpoint.ClaimPhase;
import io.github.dra4j.kubeletplugin.testsupport.ClaimFixtures;
import io.github.dra4j.kubeletplugin.testsupport.PluginTestBase;
import io.github.dra4j.kubeletplugin.testsupport.TestPlugins;
import io.github.dra4j.resourceclaim.AllocatedDevice;
import io.github.dra4j.testing.cdi.registry.CdiRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The claim lifecycle through the kubelet's gRPC calls: the checkpoint, the CDI specs, repeated
 * calls after restarts and reboots, half-done work, conflicts and clean-up.
 */
class ClaimLifecycleTest extends PluginTestBase {

  private static final String KIND = "k8s.gpu.example.com/claim";

  KubernetesMockServer server;

  private Path cdi;
  private Path bootId;
  private CountingHardware hardware;
  private CountingGpuDriver driver;

  @BeforeEach
  void setUp() throws IOException {
    cdi = Files.createDirectories(root.resolve("cdi"));
    bootId = root.resolve("boot_id");
    Files.writeString(bootId, "boot-1\n");
    hardware = new CountingHardware(root.resolve("hardware.json"));
    driver = new CountingGpuDriver(hardware);
  }

  private Path dataDirectory() {
    return root.resolve("plugins").resolve(DRIVER);
  }

  private Path checkpointFile() {
    return dataDirectory().resolve("checkpoint.json");
  }

  private KubeletPlugin start() {
    return start(Duration.ZERO);
  }

  private KubeletPlugin start(Duration goneClaimCheckInterval) {
    ClaimLifecycle<CountingGpuDriver.State> lifecycle = ClaimLifecycle
        .builder(driver, CountingGpuDriver.State.class)
        .bootIdSource(bootId)
        .cdiDirectory(cdi)
        .goneClaimCheckInterval(goneClaimCheckInterval)
        .build();
    return TestPlugins.builder(lifecycle, client, root).start();
  }

  private ResourceClaim stored(String name, DeviceRequestAllocationResultBuilder... results) {
    List<DeviceRequestAllocationResult> built = new ArrayList<>();
    for (DeviceRequestAllocationResultBuilder result : results) {
      built.add(result.build());
    }
    return ClaimFixtures.store(client, new ResourceClaimBuilder()
        .withNewMetadata().withNamespace("default").withName(name).endMetadata()
        .withNewSpec().withNewDevices().addNewRequest().withName("gpu").withNewExactly()
        .withDeviceClassName("gpu.example.com").endExactly().endRequest().endDevices().endSpec()
        .withNewStatus().withNewAllocation().withNewDevices().withResults(built).endDevices()
        .endAllocation().endStatus().build());
  }

  private static DeviceRequestAllocationResultBuilder gpu(String device) {
    return new DeviceRequestAllocationResultBuilder().withDriver(DRIVER).withRequest("gpu")
        .withPool("node-1").withDevice(device);
  }

  private static Claim ref(ResourceClaim claim) {
    return claim("default", claim.getMetadata().getName(), claim.getMetadata().getUid());
  }

  private NodePrepareResourceResponse prepare(KubeletPlugin plugin, ResourceClaim claim) {
    return kubelet.prepare(plugin.draSocket(), ref(claim))
        .getClaimsOrThrow(claim.getMetadata().getUid());
  }

  private String unprepareError(KubeletPlugin plugin, ResourceClaim claim) {
    return kubelet.unprepare(plugin.draSocket(), ref(claim))
        .getClaimsOrThrow(claim.getMetadata().getUid()).getError();
  }

  private Path specOf(ResourceClaim claim) {
    return cdi.resolve("k8s.gpu.example.com-claim_" + claim.getMetadata().getUid() + ".json");
  }

  private CheckpointData checkpoint() throws Exception {
    try (CheckpointFile file = CheckpointFile.open(checkpointFile());
        CheckpointFile.Session session = file.lock()) {
      return session.read().data();
    }
  }

  private static String uid(ResourceClaim claim) {
    return claim.getMetadata().getUid();
  }

  @Test
  void preparesWithACdiSpecAndACheckpointEntryThenUndoesAllInOrder() throws Exception {
    ResourceClaim claim = stored("two", gpu("gpu-0"), gpu("gpu-1"));
    try (KubeletPlugin plugin = start()) {
      NodePrepareResourceResponse answer = prepare(plugin, claim);

      assertThat(answer.getError()).isEmpty();
      assertThat(answer.getDevicesList()).extracting(d -> List.copyOf(d.getCdiDeviceIdsList()))
          .containsExactly(List.of(KIND + "=" + uid(claim) + "-gpu-0"),
              List.of(KIND + "=" + uid(claim) + "-gpu-1"));
      assertThat(hardware.counts()).containsExactly(Map.entry("gpu-0", 1), Map.entry("gpu-1", 1));
      var edits = CdiRegistry.load(List.of(cdi))
          .resolve(answer.getDevices(1).getCdiDeviceIdsList()).edits();
      assertThat(edits.env()).containsExactly("GPU_1=gpu-1");
      ClaimEntry entry = checkpoint().entry(uid(claim)).orElseThrow();
      assertThat(entry.phase()).isEqualTo(ClaimPhase.PREPARE_COMPLETED);
      assertThat(entry.bootId()).isEqualTo("boot-1");
      assertThat(entry.driverState().get("note").asString()).isEqualTo("note-two");
      assertThat(entry.allocation()).containsExactly(AllocatedDevice.of("gpu", "node-1", "gpu-0"),
          AllocatedDevice.of("gpu", "node-1", "gpu-1"));
      assertThat(gauge(plugin, "dra4j.lifecycle.prepared.claims")).isEqualTo(1.0);
      assertThat(gauge(plugin, "dra4j.lifecycle.prepared.devices")).isEqualTo(2.0);

      assertThat(unprepareError(plugin, claim)).isEmpty();
      assertThat(gauge(plugin, "dra4j.lifecycle.prepared.claims")).isZero();
      assertThat(gauge(plugin, "dra4j.lifecycle.prepared.devices")).isZero();
    }
    assertThat(driver.calls()).containsExactly("prepare two", "unprepare two note-two");
    assertThat(hardware.counts()).isEmpty();
    assertThat(specOf(claim)).doesNotExist();
    assertThat(checkpoint().entry(uid(claim))).isEmpty();
  }

  @Test
  void preparedAgainInTheSameBootTheStoredAnswerReturnsAndALostSpecIsRewritten()
      throws Exception {
    ResourceClaim claim = stored("again", gpu("gpu-0"));
    NodePrepareResourceResponse first;
    try (KubeletPlugin plugin = start()) {
      first = prepare(plugin, claim);
      String written = Files.readString(specOf(claim));
      Files.delete(specOf(claim));

      assertThat(prepare(plugin, claim)).isEqualTo(first);
      assertThat(Files.readString(specOf(claim))).isEqualTo(written);
    }
    Files.delete(specOf(claim));
    try (KubeletPlugin restarted = start()) {
      assertThat(specOf(claim)).as("restored at start").exists();
      assertThat(prepare(restarted, claim)).isEqualTo(first);
    }
    assertThat(driver.calls()).containsExactly("prepare again");
    assertThat(hardware.counts()).containsExactly(Map.entry("gpu-0", 1));
  }

  @Test
  void preparedAgainAfterARestartTheClaimIsNotReadFromTheApiServer() throws Exception {
    ResourceClaim claim = stored("known", gpu("gpu-0"));
    NodePrepareResourceResponse first;
    try (KubeletPlugin plugin = start()) {
      first = prepare(plugin, claim);
      assertThat(first.getError()).isEmpty();
    }
    ResourceClaim other = stored("other", gpu("gpu-1"));
    try (KubeletPlugin restarted = start()) {
      int before = server.getRequestCount();
      assertThat(prepare(restarted, claim)).isEqualTo(first);
      assertThat(server.getRequestCount() - before).as("API requests of the re-prepare")
          .isZero();

      // A claim the checkpoint does not hold is read as before.
      assertThat(prepare(restarted, other).getError()).isEmpty();
      assertThat(server.getRequestCount() - before).as("API requests of a fresh prepare")
          .isPositive();
    }
    assertThat(driver.calls()).containsExactly("prepare known", "prepare other");
    assertThat(hardware.counts()).containsExactly(Map.entry("gpu-0", 1), Map.entry("gpu-1", 1));
  }

  @Test
  void aClaimTheCheckpointNoLongerHoldsIsReadAndPreparedAfterAllWhenTheHintWasStale()
      throws Exception {
    ResourceClaim claim = stored("stale", gpu("gpu-0"));
    try (KubeletPlugin plugin = start()) {
      assertThat(prepare(plugin, claim).getError()).isEmpty();
      assertThat(unprepareError(plugin, claim)).isEmpty();
      // The other pod of a rolling update prepared it since, and this process has not seen it:
      // write the entry back as completed, then remove it behind this process's back.
      assertThat(prepare(plugin, claim).getError()).isEmpty();
      try (CheckpointFile other = CheckpointFile.open(checkpointFile());
          CheckpointFile.Session session = other.lock()) {
        session.write(session.read().data().without(uid(claim)));
      }

      NodePrepareResourceResponse again = prepare(plugin, claim);

      assertThat(again.getError()).isEmpty();
      assertThat(again.getDevicesList()).hasSize(1);
      assertThat(checkpoint().entry(uid(claim)).orElseThrow().phase())
          .isEqualTo(ClaimPhase.PREPARE_COMPLETED);
    }
    assertThat(driver.calls()).containsExactly("prepare stale", "unprepare stale note-stale",
        "prepare stale", "prepare stale");
  }

  @Test
  void afterARebootTheDriverPreparesAgainAndTheOldEntryDoesNotShortCutIt() throws Exception {
    ResourceClaim claim = stored("rebooted", gpu("gpu-0"));
    try (KubeletPlugin plugin = start()) {
      assertThat(prepare(plugin, claim).getError()).isEmpty();
    }
    // The reboot: a new boot ID, /var/run/cdi wiped, the hardware forgot everything.
    Files.writeString(bootId, "boot-2\n");
    Files.delete(specOf(claim));
    hardware.reset();

    try (KubeletPlugin plugin = start()) {
      assertThat(checkpoint().size()).as("old boot's entries dropped at start").isZero();
      NodePrepareResourceResponse answer = prepare(plugin, claim);
      assertThat(answer.getError()).isEmpty();
    }
    assertThat(driver.calls()).containsExactly("prepare rebooted", "prepare rebooted");
    assertThat(hardware.counts()).containsExactly(Map.entry("gpu-0", 1));
    assertThat(specOf(claim)).exists();
    assertThat(checkpoint().entry(uid(claim)).orElseThrow().bootId()).isEqualTo("boot-2");
  }

  @Test
  void aFailedPrepareIsRolledBackAndTheOtherClaimsOfTheCallProceed() throws Exception {
    driver.failingAfterHolding(name -> name.equals("bad"));
    ResourceClaim bad = stored("bad", gpu("gpu-0"));
    ResourceClaim good = stored("good", gpu("gpu-1"));
    try (KubeletPlugin plugin = start()) {
      NodePrepareResourcesResponse answer = kubelet.prepare(plugin.draSocket(), ref(bad),
          ref(good));

      assertThat(answer.getClaimsOrThrow(uid(bad)).getError())
          .isEqualTo("GPU firmware did not answer for bad");
      assertThat(answer.getClaimsOrThrow(uid(good)).getError()).isEmpty();
    }
    assertThat(driver.calls()).containsExactly("prepare bad", "rollback bad", "prepare good");
    assertThat(hardware.counts()).containsExactly(Map.entry("gpu-1", 1));
    assertThat(checkpoint().claims().keySet()).containsExactly(uid(good));
    assertThat(specOf(bad)).doesNotExist();
  }

  @Test
  void workLeftHalfDoneByACrashIsRolledBackAtTheNextStart() throws Exception {
    ResourceClaim claim = stored("crashed", gpu("gpu-0"));
    // What a process killed during the driver's prepare leaves: the entry marked started, the
    // hardware held.
    Files.createDirectories(dataDirectory());
    try (CheckpointFile file = CheckpointFile.open(checkpointFile());
        CheckpointFile.Session session = file.lock()) {
      session.write(CheckpointData.empty().with(uid(claim), ClaimEntry.started("default",
          "crashed", "boot-1", List.of(AllocatedDevice.of("gpu", "node-1", "gpu-0")))));
    }
    hardware.hold("gpu-0", uid(claim));

    try (KubeletPlugin plugin = start()) {
      assertThat(hardware.counts()).isEmpty();
      assertThat(checkpoint().size()).isZero();
      assertThat(prepare(plugin, claim).getError()).isEmpty();
    }
    assertThat(driver.calls()).containsExactly("rollback crashed", "prepare crashed");
    assertThat(hardware.counts()).containsExactly(Map.entry("gpu-0", 1));
  }

  @Test
  void aDeviceHeldByAnotherClaimFailsTheNewClaimNamingTheOther() throws Exception {
    ResourceClaim first = stored("first", gpu("gpu-0"));
    ResourceClaim second = stored("second", gpu("gpu-0"));
    ResourceClaim admin = stored("admin", gpu("gpu-0").withAdminAccess(true));
    try (KubeletPlugin plugin = start()) {
      assertThat(prepare(plugin, first).getError()).isEmpty();

      assertThat(prepare(plugin, second).getError()).isEqualTo("device node-1/gpu-0 of request"
          + " gpu is already prepared for claim default/first (uid " + uid(first)
          + "); it must be unprepared first");
      assertThat(prepare(plugin, admin).getError()).isEmpty();
    }
    assertThat(driver.calls()).containsExactly("prepare first", "prepare admin");
  }

  @Test
  void unpreparingAClaimNobodyPreparedSucceedsAndRemovesAStraySpec() throws Exception {
    ResourceClaim claim = stored("unknown", gpu("gpu-0"));
    Files.writeString(specOf(claim), "{}", StandardCharsets.UTF_8);
    try (KubeletPlugin plugin = start()) {
      assertThat(unprepareError(plugin, claim)).isEmpty();
    }
    assertThat(specOf(claim)).doesNotExist();
    assertThat(driver.calls()).isEmpty();
  }

  @Test
  void aBatchOf32ClaimsCostsTwoCheckpointWritesToPrepareAndTwoToUnprepare() throws Exception {
    List<ResourceClaim> claims = new ArrayList<>();
    for (int i = 0; i < 32; i++) {
      claims.add(stored("c" + i, gpu("gpu-" + i)));
    }
    Claim[] refs = claims.stream().map(ClaimLifecycleTest::ref).toArray(Claim[]::new);
    try (KubeletPlugin plugin = start()) {
      long before = checkpointWrites(plugin);
      NodePrepareResourcesResponse prepared = kubelet.prepare(plugin.draSocket(), refs);
      long afterPrepare = checkpointWrites(plugin);
      kubelet.unprepare(plugin.draSocket(), refs);
      long afterUnprepare = checkpointWrites(plugin);

      assertThat(prepared.getClaimsMap().values()).allSatisfy(a -> assertThat(a.getError())
          .isEmpty());
      assertThat(afterPrepare - before).isEqualTo(2);
      assertThat(afterUnprepare - afterPrepare).as("marked as being unprepared, then removed")
          .isEqualTo(2);
    }
    assertThat(hardware.counts()).isEmpty();
  }

  private static double gauge(KubeletPlugin plugin, String name) {
    return plugin.meterRegistry().get(name).tag("driver_name", DRIVER).gauge().value();
  }

  private static long checkpointWrites(KubeletPlugin plugin) {
    return (long) plugin.meterRegistry().get("dra4j.lifecycle.checkpoint.writes")
        .tag("driver_name", DRIVER).functionCounter().count();
  }

  @Test
  void aCorruptCheckpointIsKeptAsideReportedAndTheSpecsOfItsClaimsStay() throws Exception {
    ResourceClaim claim = stored("kept", gpu("gpu-0"));
    try (KubeletPlugin plugin = start()) {
      assertThat(prepare(plugin, claim).getError()).isEmpty();
    }
    byte[] good = Files.readAllBytes(checkpointFile());
    Files.write(checkpointFile(), Arrays.copyOf(good, good.length / 2));

    try (KubeletPlugin plugin = start()) {
      assertThat(driver.errors()).singleElement().satisfies(message -> assertThat(message)
          .startsWith("claim checkpoint " + checkpointFile() + " was unreadable and was kept"
              + " aside as " + checkpointFile() + ".corrupt-"));
      assertThat(specOf(claim)).as("the spec is what is still known").exists();
      assertThat(plugin.meterRegistry().get("dra4j.lifecycle.checkpoint.corruptions")
          .tag("driver_name", DRIVER).counter().count()).isEqualTo(1.0);
      assertThat(plugin.isServing()).as("a corrupt checkpoint does not stop the plugin").isTrue();
      assertThat(prepare(plugin, claim).getError()).as("the kubelet's repeated prepare")
          .isEmpty();
      try (var files = Files.list(dataDirectory())) {
        assertThat(files.map(p -> p.getFileName().toString()))
            .anySatisfy(name -> assertThat(name).startsWith("checkpoint.json.corrupt-"));
      }
    }
  }

  @Test
  void aCommonDeviceIsWrittenAtStartAnsweredFirstForEveryDeviceAndKeptByTheRepair()
      throws Exception {
    Path common = cdi.resolve("k8s.gpu.example.com-claim_common.json");
    ResourceClaim claim = stored("shared", gpu("gpu-0"), gpu("gpu-1"));
    ClaimLifecycle.Builder<CountingGpuDriver.State> withCommon = ClaimLifecycle
        .builder(driver, CountingGpuDriver.State.class)
        .bootIdSource(bootId).cdiDirectory(cdi).goneClaimCheckInterval(Duration.ZERO)
        .commonDevice("common", ContainerEdits.builder()
            .env("KUBERNETES_NODE_NAME", "node-1").deviceNode("/dev/ctl").build());
    try (KubeletPlugin plugin = TestPlugins.builder(withCommon.build(), client, root).start()) {
      assertThat(common).as("written at start").exists();
      NodePrepareResourceResponse answer = prepare(plugin, claim);

      assertThat(answer.getDevicesList()).extracting(d -> List.copyOf(d.getCdiDeviceIdsList()))
          .containsExactly(List.of(KIND + "=common", KIND + "=" + uid(claim) + "-gpu-0"),
              List.of(KIND + "=common", KIND + "=" + uid(claim) + "-gpu-1"));
      var edits = CdiRegistry.load(List.of(cdi))
          .resolve(answer.getDevices(1).getCdiDeviceIdsList()).edits();
      assertThat(edits.env()).containsExactly("KUBERNETES_NODE_NAME=node-1", "GPU_1=gpu-1");
      assertThat(edits.deviceNodes()).extracting(n -> n.path()).containsExactly("/dev/ctl");
      assertThat(unprepareError(plugin, claim)).isEmpty();
      assertThat(common).as("kept while claims come and go").exists();
    }
    try (KubeletPlugin restarted = TestPlugins.builder(withCommon.build(), client, root)
        .start()) {
      assertThat(common).as("not an orphan to the repair at start").exists();
    }
    try (KubeletPlugin without = start()) {
      assertThat(common).as("removed once the driver has no common device").doesNotExist();
    }
    assertThatThrownBy(() -> withCommon.commonDevice("not/valid", ContainerEdits.EMPTY))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not/valid");
  }

  @Test
  void atStartSpecsOfClaimsTheCheckpointDoesNotHoldAreRemovedOthersStay() throws Exception {
    Path orphan = cdi.resolve("k8s.gpu.example.com-claim_gone-1.json");
    Files.write(orphan, SpecCodec.standard().toJson(CdiSpec.builder()
        .kind(KIND).device("gone-1-gpu-0", e -> e.env("A", "1")).build()));
    Path foreign = cdi.resolve("example.com-other_gone-1.json");
    Files.write(foreign, SpecCodec.standard().toJson(CdiSpec.builder()
        .kind("example.com/other").device("x", e -> e.env("A", "1")).build()));

    try (KubeletPlugin plugin = start()) {
      assertThat(orphan).doesNotExist();
      assertThat(foreign).exists();
    }
  }

  @Test
  void aClaimDeletedFromTheApiServerIsUnpreparedByTheBackgroundCheck() throws Exception {
    ResourceClaim gone = stored("gone", gpu("gpu-0"));
    ResourceClaim kept = stored("kept", gpu("gpu-1"));
    try (KubeletPlugin plugin = start(Duration.ofMillis(200))) {
      kubelet.prepare(plugin.draSocket(), ref(gone), ref(kept));
      client.resource(gone).delete();

      // Until the entry is gone too: closing the plugin while the sweep is between the driver's
      // undo and its checkpoint write interrupts the write, and the entry stays marked.
      await().atMost(Duration.ofSeconds(20)).until(() -> hardware.counts().size() == 1
          && checkpoint().entry(uid(gone)).isEmpty());
    }
    assertThat(hardware.counts()).containsExactly(Map.entry("gpu-1", 1));
    assertThat(checkpoint().claims().keySet()).containsExactly(uid(kept));
    assertThat(specOf(gone)).doesNotExist();
    assertThat(driver.calls()).contains("unprepare gone note-gone")
        .doesNotContain("unprepare kept note-kept");
  }
}
