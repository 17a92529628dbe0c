package io.github.dra4j.lifecycle;

import static io.github.dra4j.kubeletplugin.testsupport.TestPlugins.DRIVER;
import static io.github.dra4j.testing.kubelet.KubeletClient.claim;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.kubeletplugin.PluginStartException;
import io.github.dra4j.kubeletplugin.testsupport.ClaimFixtures;
import io.github.dra4j.kubeletplugin.testsupport.PluginTestBase;
import io.github.dra4j.kubeletplugin.testsupport.TestPlugins;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The claim lifecycle on a plugin directory that is full or read-only: a small tmpfs mounted for
 * the test (root only; skipped, saying why, elsewhere). Errors name the file, and nothing already
 * prepared is lost.
 */
class ClaimLifecycleDiskTest extends PluginTestBase {

  private Path mount;
  private Path cdi;
  private Path bootId;
  private CountingHardware hardware;
  private CountingGpuDriver driver;
  private boolean mounted;

  @BeforeEach
  void mountTmpfs() throws Exception {
    mount = Files.createDirectories(root.resolve("plugins"));
    String problem = run("mount", "-t", "tmpfs", "-o", "size=128k", "tmpfs", mount.toString());
    assumeTrue(problem.isEmpty(), "cannot mount a small tmpfs to fill (needs root): " + problem);
    mounted = true;
    Files.createDirectories(mount.resolve(DRIVER));
    cdi = Files.createDirectories(root.resolve("cdi"));
    bootId = root.resolve("boot_id");
    Files.writeString(bootId, "boot-1\n");
    hardware = new CountingHardware(root.resolve("hardware.json"));
    driver = new CountingGpuDriver(hardware);
  }

  @AfterEach
  void unmount() throws Exception {
    if (mounted) {
      run("umount", "-l", mount.toString());
    }
  }

  /** Runs a command; returns its output when it fails, empty when it succeeds. */
  private static String run(String... command) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      return "timed out";
    }
    return process.exitValue() == 0 ? "" : output.strip() + " (exit " + process.exitValue() + ")";
  }

  private KubeletPlugin start() {
    return TestPlugins.builder(
        ClaimLifecycle.builder(driver, CountingGpuDriver.State.class)
            .bootIdSource(bootId).cdiDirectory(cdi)
            .goneClaimCheckInterval(Duration.ZERO).build(),
        client, root)
        .start();
  }

  private ResourceClaim stored(String name, String device) {
    ResourceClaim claim = ClaimFixtures.allocated("default", name, DRIVER);
    claim.getStatus().getAllocation().getDevices().getResults().get(0).setDevice(device);
    return ClaimFixtures.store(client, claim);
  }

  private String prepareError(KubeletPlugin plugin, ResourceClaim claim) {
    String uid = claim.getMetadata().getUid();
    return kubelet.prepare(plugin.draSocket(), claim("default", claim.getMetadata().getName(),
        uid)).getClaimsOrThrow(uid).getError();
  }

  private Path checkpoint() {
    return mount.resolve(DRIVER).resolve("checkpoint.json");
  }

  private String unprepareError(KubeletPlugin plugin, ResourceClaim claim) {
    String uid = claim.getMetadata().getUid();
    return kubelet.unprepare(plugin.draSocket(), claim("default", claim.getMetadata().getName(),
        uid)).getClaimsOrThrow(uid).getError();
  }

  private Path specOf(ResourceClaim claim) {
    return cdi.resolve("k8s.gpu.example.com-claim_" + claim.getMetadata().getUid() + ".json");
  }

  /** Fills the tmpfs to the last block; returns the file to delete to make room again. */
  private Path fill() {
    Path filler = mount.resolve("filler");
    try (OutputStream out = Files.newOutputStream(filler)) {
      byte[] block = new byte[4096];
      while (true) {
        out.write(block);
        out.flush();
      }
    } catch (IOException full) {
      assertThat(full.getMessage()).contains("No space left on device");
    }
    return filler;
  }

  @Test
  void aFullDiskFailsTheNewClaimNamingTheFileAndLosesNothing() throws Exception {
    ResourceClaim first = stored("first", "gpu-0");
    ResourceClaim second = stored("second", "gpu-1");
    try (KubeletPlugin plugin = start()) {
      assertThat(prepareError(plugin, first)).isEmpty();
      byte[] before = Files.readAllBytes(checkpoint());
      Path filler = fill();

      String error = prepareError(plugin, second);

      assertThat(error).startsWith("record claim as being prepared: ")
          .contains(checkpoint().toString()).contains("No space left on device");
      assertThat(hardware.counts()).as("nothing was done for the second claim")
          .containsOnlyKeys("gpu-0");
      assertThat(Files.readAllBytes(checkpoint())).as("the first claim's record").isEqualTo(before);
      assertThat(prepareError(plugin, first)).as("the first claim still prepares").isEmpty();

      Files.delete(filler);
      assertThat(prepareError(plugin, second)).as("once there is room again").isEmpty();
    }
    assertThat(hardware.counts()).containsOnlyKeys("gpu-0", "gpu-1");
    try (var files = Files.list(mount.resolve(DRIVER))) {
      assertThat(files.map(p -> p.getFileName().toString()).toList())
          .as("no temporary file left").noneMatch(name -> name.endsWith(".tmp"));
    }
  }

  @Test
  void aReadOnlyPluginDirectoryStopsTheStartNamingTheFileAndTheClaimsSurvive() throws Exception {
    ResourceClaim first = stored("first", "gpu-0");
    try (KubeletPlugin plugin = start()) {
      assertThat(prepareError(plugin, first)).isEmpty();
    }
    byte[] before = Files.readAllBytes(checkpoint());
    assertThat(run("mount", "-o", "remount,ro", mount.toString())).isEmpty();

    assertThatThrownBy(this::start)
        .isInstanceOf(PluginStartException.class)
        .hasMessageContaining(mount.resolve(DRIVER).toString())
        .hasMessageContaining("Read-only file system");

    assertThat(run("mount", "-o", "remount,rw", mount.toString())).isEmpty();
    assertThat(Files.readAllBytes(checkpoint())).isEqualTo(before);
    try (KubeletPlugin plugin = start()) {
      assertThat(prepareError(plugin, first)).isEmpty();
    }
    assertThat(hardware.counts()).containsOnlyKeys("gpu-0");
    assertThat(List.of(cdi.toFile().list())).hasSize(1);
  }

  @Test
  void anUnprepareWhoseLastCheckpointWriteFailsIsDoneAgainByTheNextPrepare() throws Exception {
    ResourceClaim claim = stored("undone", "gpu-0");
    List<Path> fillers = new ArrayList<>();
    try (KubeletPlugin plugin = start()) {
      assertThat(prepareError(plugin, claim)).isEmpty();
      // The disk fills up between the driver's undo and the write that records it.
      driver.afterRelease(() -> fillers.add(fill()));

      assertThat(unprepareError(plugin, claim)).contains("No space left on device")
          .contains(checkpoint().toString());
      assertThat(hardware.counts()).as("the driver's undo ran").isEmpty();

      driver.afterRelease(() -> {});
      Files.delete(fillers.get(0));
      String error = prepareError(plugin, claim);

      assertThat(error).as("the kubelet's prepare of the same claim").isEmpty();
      assertThat(hardware.holders()).as("the prepare did the hardware work again")
          .containsEntry("gpu-0", Set.of(claim.getMetadata().getUid()));
      assertThat(specOf(claim)).exists();
    }
    assertThat(driver.calls()).endsWith("prepare undone");
  }

  @Test
  void anUnprepareThatCannotBeRecordedUndoesNothingAndTheClaimStaysWhole() throws Exception {
    ResourceClaim claim = stored("kept", "gpu-0");
    try (KubeletPlugin plugin = start()) {
      assertThat(prepareError(plugin, claim)).isEmpty();
      Path filler = fill();

      assertThat(unprepareError(plugin, claim)).contains("No space left on device")
          .contains(checkpoint().toString());
      assertThat(prepareError(plugin, claim)).as("the kubelet's prepare of the same claim")
          .isEmpty();
      assertThat(hardware.holders()).as("what the kubelet was told is prepared is")
          .containsEntry("gpu-0", Set.of(claim.getMetadata().getUid()));
      assertThat(specOf(claim)).exists();

      Files.delete(filler);
      assertThat(unprepareError(plugin, claim)).isEmpty();
    }
    assertThat(hardware.counts()).isEmpty();
    assertThat(specOf(claim)).doesNotExist();
  }
}
