package io.github.dra4j.kubeletplugin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.resource.v1.AllocatedDeviceStatus;
import io.fabric8.kubernetes.api.model.resource.v1.AllocatedDeviceStatusBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.dra4j.kubelet.wire.dra.v1.Claim;
import io.github.dra4j.kubeletplugin.testsupport.ClaimFixtures;
import io.github.dra4j.kubeletplugin.testsupport.RecordingDriver;
import io.github.dra4j.testing.apiserver.ApiVerb;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import io.github.dra4j.testing.kubelet.KubeletClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Claim device status: written beside other drivers' entries, cleared on unprepare, never fatal. */
class ClaimStatusTest {

  private static final String GPU = "gpu.example.com";
  private static final String NIC = "nic.example.com";

  @TempDir
  Path root;
  private InMemoryApiServer server;
  private KubernetesClient client;
  private final KubeletClient kubelet = KubeletClient.create();
  private final List<KubeletPlugin> plugins = new ArrayList<>();

  @BeforeEach
  void setUp() {
    server = InMemoryApiServer.builder().build().start();
    client = server.client();
  }

  @AfterEach
  void tearDown() {
    plugins.forEach(KubeletPlugin::close);
    kubelet.close();
    server.close();
  }

  private KubeletPlugin start(DraDriver driver, String name, boolean claimStatus)
      throws Exception {
    Path dir = Files.createDirectories(root.resolve(name.substring(0, 3)));
    KubeletPlugin plugin = KubeletPlugin.builder(driver).driverName(name).kubeClient(client)
        .nodeName("node-1").registrarDirectory(Files.createDirectories(dir.resolve("reg")))
        .pluginDataDirectory(Files.createDirectories(dir.resolve("data")))
        .apiServer(a -> a.withClaimStatus(claimStatus)).shutdown(s -> s.withCloseOnShutdown(false))
        .start();
    plugins.add(plugin);
    return plugin;
  }

  /** A claim with one GPU of {@value #GPU} and one NIC of {@value #NIC}. */
  private ResourceClaim sharedClaim() {
    ResourceClaim claim = new ResourceClaimBuilder(ClaimFixtures.allocated("default", "c", GPU))
        .editStatus().editAllocation().editDevices()
        .addNewResult().withRequest("gpu").withDriver(NIC).withPool("node-1")
        .withDevice("nic-0").endResult()
        .endDevices().endAllocation().endStatus().build();
    return ClaimFixtures.store(client, claim);
  }

  private static AllocatedDeviceStatus status(String pool, String device, String data) {
    return new AllocatedDeviceStatusBuilder().withPool(pool).withDevice(device)
        .withData(Map.of("value", data)).build();
  }

  private static Claim ref(ResourceClaim claim) {
    return Claim.newBuilder().setNamespace("default").setName(claim.getMetadata().getName())
        .setUid(claim.getMetadata().getUid()).build();
  }

  /** The data as read back: the model wraps arbitrary JSON. */
  private static Object data(AllocatedDeviceStatus status) {
    return status.getData() instanceof io.fabric8.kubernetes.api.model.AnyType any
        ? any.getValue() : status.getData();
  }

  private List<AllocatedDeviceStatus> stored(ResourceClaim claim) {
    ResourceClaim current = client.resources(ResourceClaim.class).inNamespace("default")
        .withName(claim.getMetadata().getName()).get();
    return current.getStatus().getDevices() == null ? List.of()
        : current.getStatus().getDevices();
  }

  @Test
  void aDriverReportsDuringPrepareAndTheEntryGoesAfterUnprepare() throws Exception {
    ResourceClaim claim = sharedClaim();
    AtomicReference<KubeletPlugin> self = new AtomicReference<>();
    RecordingDriver gpu = new RecordingDriver(GPU).answering(c -> {
      // The driver does not wait for the write; the test reads the claim's status below.
      var unused = self.get().claimStatus().report(c, List.of(status("node-1", "gpu-0", "ready")));
      return null;
    });
    KubeletPlugin plugin = start(gpu, GPU, true);
    self.set(plugin);
    KubeletPlugin nic = start(new RecordingDriver(NIC), NIC, true);
    nic.claimStatus().report(claim, List.of(status("node-1", "nic-0", "up"))).get(30,
        TimeUnit.SECONDS);

    assertThat(kubelet.prepare(plugin.draSocket(), ref(claim)).getClaimsOrThrow(
        claim.getMetadata().getUid()).getError()).isEmpty();
    await().atMost(Duration.ofSeconds(30)).until(() -> stored(claim).size() == 2);
    assertThat(stored(claim)).extracting(AllocatedDeviceStatus::getDriver,
        AllocatedDeviceStatus::getDevice).containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple(NIC, "nic-0"),
            org.assertj.core.groups.Tuple.tuple(GPU, "gpu-0"));

    assertThat(kubelet.unprepare(plugin.draSocket(), ref(claim)).getClaimsOrThrow(
        claim.getMetadata().getUid()).getError()).isEmpty();
    await().atMost(Duration.ofSeconds(30)).until(() -> stored(claim).size() == 1);
    assertThat(stored(claim)).singleElement().extracting(AllocatedDeviceStatus::getDriver)
        .isEqualTo(NIC);
  }

  @Test
  void twoDriversWritingTheSameClaimAtOnceKeepEachOthersEntries() throws Exception {
    ResourceClaim claim = sharedClaim();
    KubeletPlugin gpu = start(new RecordingDriver(GPU), GPU, true);
    KubeletPlugin nic = start(new RecordingDriver(NIC), NIC, true);

    List<CompletableFuture<Void>> writes = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      writes.add(gpu.claimStatus().report(claim, List.of(status("node-1", "gpu-0", "g" + i))));
      writes.add(nic.claimStatus().report(claim, List.of(status("node-1", "nic-0", "n" + i))));
    }
    CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);

    assertThat(stored(claim)).extracting(d -> d.getDriver() + "=" + data(d))
        .containsExactlyInAnyOrder(GPU + "={value=g19}", NIC + "={value=n19}");
  }

  @Test
  void aForbiddenStatusWriteIsReportedAsRecoverableAndThePrepareSucceeds() throws Exception {
    ResourceClaim claim = ClaimFixtures.store(client,
        ClaimFixtures.allocated("default", "f", GPU));
    AtomicReference<KubeletPlugin> self = new AtomicReference<>();
    AtomicReference<CompletableFuture<Void>> write = new AtomicReference<>();
    RecordingDriver gpu = new RecordingDriver(GPU).answering(c -> {
      write.set(self.get().claimStatus().report(c, List.of(status("node-1", "gpu-0", "x"))));
      return null;
    });
    KubeletPlugin plugin = start(gpu, GPU, true);
    self.set(plugin);
    server.failNext(ApiVerb.UPDATE, "resourceclaims", 403, 100);

    assertThat(kubelet.prepare(plugin.draSocket(), ref(claim)).getClaimsOrThrow(
        claim.getMetadata().getUid()).getError()).isEmpty();

    assertThatThrownBy(() -> write.get().get(30, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class).hasMessageContaining("HTTP 403");
    await().atMost(Duration.ofSeconds(30)).until(() -> !gpu.errors().isEmpty());
    assertThat(gpu.errors()).singleElement().satisfies(error -> {
      assertThat(RecoverableException.isRecoverable(error.getKey())).isTrue();
      assertThat(error.getValue()).startsWith("cannot report the status of 1 device(s) of claim "
          + "default/f: ");
    });
    assertThat(plugin.isServing()).isTrue();
    assertThat(plugin.meterRegistry().get("dra4j.plugin.errors").tags("driver_name", GPU,
        "kind", "recoverable").counter().count()).isEqualTo(1.0);
    assertThat(plugin.meterRegistry().get("dra4j.plugin.errors").tags("driver_name", GPU,
        "kind", "fatal").counter().count()).isZero();
    server.clearFaults();
  }

  @Test
  void onlyThisDriversAllocatedDevicesCanBeReported() throws Exception {
    ResourceClaim claim = sharedClaim();
    KubeletPlugin gpu = start(new RecordingDriver(GPU), GPU, true);

    // The server's rule: the entry (with this driver's name put in) is not an allocated device.
    assertThatThrownBy(() -> gpu.claimStatus().report(claim,
        List.of(status("node-1", "nic-0", "x"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("ResourceClaim.resource.k8s.io \"c\" is invalid: status.devices[0]: Invalid"
            + " value: {\"Driver\":\"" + GPU + "\",\"Pool\":\"node-1\",\"Device\":\"nic-0\","
            + "\"ShareID\":\"\"}: must be an allocated device in the claim");
    // The plugin's own rule: it writes its own driver's entries only.
    assertThatThrownBy(() -> gpu.claimStatus().report(claim, List.of(
        new AllocatedDeviceStatusBuilder(status("node-1", "gpu-0", "x")).withDriver(NIC)
            .build())))
        .hasMessage("device status names driver \"" + NIC + "\"; this plugin writes only driver "
            + GPU);
  }

  @Test
  void theReporterIsThereOnlyWhenTurnedOn() throws Exception {
    KubeletPlugin plugin = start(new RecordingDriver(GPU), GPU, false);

    assertThatThrownBy(plugin::claimStatus).isInstanceOf(IllegalStateException.class)
        .hasMessage("claim status is off for driver " + GPU
            + "; turn it on with KubeletPluginBuilder.apiServer(a -> a.withClaimStatus(true))");
  }
}
