package io.github.dra4j.examples.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.github.dra4j.cdi.spec.ContainerEdits;
import io.github.dra4j.cdi.spec.Mount;
import io.github.dra4j.examples.gpu.backend.SimulatedBackend;
import io.github.dra4j.examples.gpu.devices.DeviceLayout;
import io.github.dra4j.examples.gpu.mps.MpsDirectories;
import io.github.dra4j.examples.gpu.mps.MpsStubs;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.testing.kubelet.PrepareOutcome;
import io.github.dra4j.testing.node.SimulatedNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MPS and undo with real processes: the driver on a simulated node, its sharing run by the real
 * {@code nvidia-smi} and MPS commands against the stub programs of a {@link MpsStubs}.
 */
class MpsClaimTest {

  private static final String DRIVER = GpuDriver.DEFAULT_NAME;
  private static final String CONFIG = "{\"apiVersion\":\"gpu.resource.dra4j.io/v1alpha1\","
      + "\"kind\":\"GpuConfig\",\"sharing\":";

  @TempDir
  Path dir;
  private SimulatedNode node;
  private MpsStubs fake;
  private GpuDriver driver;

  @BeforeEach
  void setUp() throws Exception {
    fake = MpsStubs.create(dir.resolve("driver-root"));
    node = SimulatedNode.start();
    driver = GpuDriver.create(DRIVER, node.nodeName(), new SimulatedBackend(node.nodeName(), 2,
        dir.resolve("health.json"), Duration.ofSeconds(1), fake.sharing()),
        DeviceLayout.WHOLE_GPUS, false);
    KubeletPlugin plugin = node.startDriver(DRIVER, driver.lifecycle(), null);
    driver.attach(plugin);
    node.createDeviceClass("gpu.example.com", "device.driver == '" + DRIVER + "'");
    node.awaitDevices(DRIVER, 2);
  }

  @AfterEach
  void tearDown() throws Exception {
    driver.close();
    node.close();
    fake.killAll();
  }

  @Test
  void anMpsClaimRunsItsDaemonAndUnprepareStopsItResetsTheGpuAndLeavesNothing()
      throws Exception {
    ResourceClaim claim = node.allocate(node.createClaim(withConfig("mps", CONFIG
        + "{\"strategy\":\"MPS\",\"mpsConfig\":{\"defaultActiveThreadPercentage\":50,"
        + "\"defaultPinnedDeviceMemoryLimit\":\"1536Mi\"}}}")));
    String uuid = uuidOf(claim);
    Path mpsRoot = MpsDirectories.root(node.pluginDataDirectory(DRIVER));

    PrepareOutcome outcome = node.prepare(DRIVER, claim);

    assertThat(outcome.isSuccess()).as(outcome.toString()).isTrue();
    Path daemonDir;
    try (Stream<Path> dirs = Files.list(mpsRoot)) {
      daemonDir = dirs.collect(java.util.stream.Collectors.toList()).get(0);
    }
    assertThat(daemonDir.getFileName().toString())
        .startsWith(claim.getMetadata().getUid() + "-").hasSize(36 + 6);
    assertThat(fake.smiLog()).containsExactly("-i " + uuid + " -c EXCLUSIVE_PROCESS");
    assertThat(fake.mpsLog()).startsWith("call args=[-d] visible=" + uuid + " pipe=" + daemonDir
        + "/pipe log=" + daemonDir + "/log ld=" + fake.bin().getParent().resolve("lib64"));
    assertThat(fake.mpsLog()).filteredOn(l -> l.startsWith("stdin ")).containsSubsequence(
        "stdin get_server_list", "stdin set_default_active_thread_percentage 50",
        "stdin set_default_device_pinned_mem_limit " + uuid + " 1536M");
    assertThat(fake.runningDaemons()).hasSize(1);
    if (MpsStubs.canIsolateShm()) {
      assertThat(daemonDir.resolve("shm/mps-stub-daemon")).as("the daemon's /dev/shm is the"
          + " group's shm directory").hasContent(fake.daemonPids().get(0).toString());
    }
    ContainerEdits edits = node.containerEdits(outcome, claim);
    assertThat(edits.env()).contains("CUDA_MPS_PIPE_DIRECTORY=/tmp/nvidia-mps",
        "GPU_DEVICE_" + deviceOf(claim).substring(4) + "_SHARING_STRATEGY=MPS",
        "GPU_DEVICE_" + deviceOf(claim).substring(4) + "_MPS_ACTIVE_THREAD_PERCENTAGE=50");
    assertThat(edits.mounts()).containsExactlyInAnyOrder(
        Mount.bind(daemonDir.resolve("pipe").toString(), "/tmp/nvidia-mps", "rw", "nosuid",
            "nodev", "bind"),
        Mount.bind(daemonDir.resolve("shm").toString(), "/dev/shm", "rw", "nosuid", "nodev",
            "bind"));

    assertThat(node.unprepare(DRIVER, claim).isSuccess()).isTrue();

    assertThat(fake.runningDaemons()).as("daemon stopped").isEmpty();
    assertThat(fake.mpsLog()).contains("stdin quit");
    assertThat(daemonDir).doesNotExist();
    assertThat(fake.smiLog()).as("only the compute mode was changed, so only it is reset")
        .containsExactly("-i " + uuid + " -c EXCLUSIVE_PROCESS", "-i " + uuid + " -c DEFAULT");
    try (Stream<Path> records = Files.list(node.pluginDataDirectory(DRIVER)
        .resolve("gpu-claims"))) {
      assertThat(records).as("the claim's record is gone").isEmpty();
    }
  }

  @Test
  void aDefaultConfigClaimWhosePrepareFailsIsRolledBackWithoutAnyCommand() throws Exception {
    ResourceClaim claim = node.createClaim("default", "elsewhere", "gpu", "gpu.example.com", 1);
    claim.setStatus(new ResourceClaimBuilder().withNewStatus().withNewAllocation()
        .withNewDevices().addNewResult().withDriver(DRIVER).withRequest("gpu")
        .withPool("another-node").withDevice("gpu-0").endResult().endDevices().endAllocation()
        .endStatus().build().getStatus());
    claim = node.client().resource(claim).updateStatus();

    PrepareOutcome outcome = node.prepare(DRIVER, claim);

    assertThat(outcome.result(claim.getMetadata().getUid()).error())
        .contains("not in this node's pool");
    assertThat(fake.smiLog()).as("it changed nothing, so its rollback touches nothing")
        .isEmpty();
    assertThat(fake.mpsLog()).isEmpty();
  }

  @Test
  void anUnprepareWhoseResetCannotRunCompletesAndTheResetRunsBeforeTheGpusNextChange()
      throws Exception {
    ResourceClaim first = node.allocate(node.createClaim(withConfig("first", CONFIG
        + "{\"strategy\":\"TimeSlicing\",\"timeSlicingConfig\":{\"interval\":\"Long\"}}}")));
    String uuid = uuidOf(first);
    assertThat(node.prepare(DRIVER, first).isSuccess()).isTrue();
    Path smi = fake.bin().resolve("nvidia-smi");
    Path saved = Files.move(smi, dir.resolve("nvidia-smi.saved"));

    assertThat(node.unprepare(DRIVER, first).isSuccess())
        .as("nvidia-smi is missing, yet the unprepare completes").isTrue();
    Path pending = node.pluginDataDirectory(DRIVER).resolve("gpu-pending-resets.json");
    assertThat(Files.readString(pending)).contains(uuid, "cannot run", smi.toString());
    node.client().resource(first).delete();

    // the devices are free: a claim that changes nothing gets the same GPU
    ResourceClaim plain = node.allocate(node.createClaim("default", "plain", "gpu",
        "gpu.example.com", 2));
    assertThat(node.prepare(DRIVER, plain).isSuccess()).isTrue();
    assertThat(node.unprepare(DRIVER, plain).isSuccess()).isTrue();
    node.client().resource(plain).delete();
    // one that changes the GPU fails, naming why, while the reset still cannot run
    ResourceClaim second = node.allocate(node.createClaim(withConfig("second", CONFIG
        + "{\"strategy\":\"TimeSlicing\",\"timeSlicingConfig\":{\"interval\":\"Short\"}}}")));
    assertThat(uuidOf(second)).isEqualTo(uuid);
    assertThat(node.prepare(DRIVER, second).result(second.getMetadata().getUid()).error())
        .contains("GPU " + uuid + " still needs its sharing reset");

    Files.move(saved, smi);
    PrepareOutcome again = node.prepare(DRIVER, second);

    assertThat(again.isSuccess()).as(again.toString()).isTrue();
    assertThat(fake.smiLog()).containsExactly(
        "-i " + uuid + " -c DEFAULT", "compute-policy -i " + uuid + " --set-timeslice 3",
        "-i " + uuid + " -c DEFAULT", "compute-policy -i " + uuid + " --set-timeslice 0",
        "-i " + uuid + " -c DEFAULT", "compute-policy -i " + uuid + " --set-timeslice 1");
    assertThat(pending).doesNotExist();
  }

  private String deviceOf(ResourceClaim claim) {
    return claim.getStatus().getAllocation().getDevices().getResults().get(0).getDevice();
  }

  private String uuidOf(ResourceClaim claim) {
    return driver.catalog().device(deviceOf(claim)).orElseThrow().gpu().uuid();
  }

  private ResourceClaim withConfig(String name, String parameters) {
    return new ResourceClaimBuilder()
        .withNewMetadata().withNamespace("default").withName(name).endMetadata()
        .withNewSpec().withNewDevices().addNewRequest().withName("gpu").withNewExactly()
        .withDeviceClassName("gpu.example.com").endExactly().endRequest()
        .addNewConfig().withRequests("gpu").withNewOpaque().withDriver(DRIVER)
        .withParameters(Serialization.unmarshal(parameters, Map.class))
        .endOpaque().endConfig().endDevices().endSpec().build();
  }
}
