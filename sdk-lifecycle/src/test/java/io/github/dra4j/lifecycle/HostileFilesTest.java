package io.github.dra4j.lifecycle;

import static io.github.dra4j.kubeletplugin.testsupport.HostileFiles.mkfifo;
import static io.github.dra4j.kubeletplugin.testsupport.HostileFiles.sparse;
import static io.github.dra4j.kubeletplugin.testsupport.TestPlugins.DRIVER;
import static io.github.dra4j.testing.kubelet.KubeletClient.claim;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.kubeletplugin.testsupport.ClaimFixtures;
import io.github.dra4j.kubeletplugin.testsupport.PluginTestBase;
import io.github.dra4j.kubeletplugin.testsupport.TestPlugins;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.LoggerFactory;

/**
 * Files the plugin did not write, at the paths it reads: a huge or sparse file, a directory, a
 * FIFO, a symbolic link, a file it may not read. Each is set aside or skipped, and reported
 * naming the path: the plugin starts, serves other claims, and finishes the unprepare of what the
 * driver owns. The 40 MB files that exhaust the chart's 32 MiB heap are in {@link
 * LifecycleProcessTest}, which runs the plugin in a JVM with the chart's options.
 */
class HostileFilesTest extends PluginTestBase {

  /** A sparse file of 3 GiB: more than a Java array holds, and no disk space at all. */
  private static final long SPARSE = 3L << 30;

  /** What lies at the path. */
  enum Hostile {
    SPARSE_3_GIB, DIRECTORY, FIFO, SYMLINK_TO_SPARSE_FILE, UNREADABLE
  }

  private Path cdi;
  private Path bootId;
  private CountingHardware hardware;
  private CountingGpuDriver driver;
  private final ListAppender<ILoggingEvent> log = new ListAppender<>();

  @BeforeEach
  void setUp() throws IOException {
    cdi = Files.createDirectories(root.resolve("cdi"));
    bootId = root.resolve("boot_id");
    Files.writeString(bootId, "boot-1\n");
    hardware = new CountingHardware(root.resolve("hardware.json"));
    driver = new CountingGpuDriver(hardware);
    log.start();
    ((Logger) LoggerFactory.getLogger("io.github.dra4j")).addAppender(log);
  }

  @AfterEach
  void detachLog() {
    ((Logger) LoggerFactory.getLogger("io.github.dra4j")).detachAppender(log);
  }

  private Path dataDirectory() throws IOException {
    return Files.createDirectories(root.resolve("plugins").resolve(DRIVER));
  }

  private KubeletPlugin start() {
    return TestPlugins.builder(ClaimLifecycle.builder(driver, CountingGpuDriver.State.class)
        .bootIdSource(bootId).cdiDirectory(cdi).goneClaimCheckInterval(Duration.ZERO).build(),
        client, root).start();
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

  private String unprepareError(KubeletPlugin plugin, ResourceClaim claim) {
    String uid = claim.getMetadata().getUid();
    return kubelet.unprepare(plugin.draSocket(), claim("default", claim.getMetadata().getName(),
        uid)).getClaimsOrThrow(uid).getError();
  }

  private Path specOf(String uid) {
    return cdi.resolve("k8s.gpu.example.com-claim_" + uid + ".json");
  }

  /** Puts the hostile thing at the path; skips the test if it cannot be made here. */
  private void place(Hostile hostile, Path path) throws Exception {
    switch (hostile) {
      case SPARSE_3_GIB -> sparse(path, SPARSE);
      case DIRECTORY -> {
        Files.createDirectory(path);
        Files.writeString(path.resolve("inside"), "keep me");
      }
      case FIFO -> mkfifo(path);
      case SYMLINK_TO_SPARSE_FILE -> {
        Path target = root.resolve("elsewhere.json");
        sparse(target, SPARSE);
        Files.createSymbolicLink(path, target);
      }
      case UNREADABLE -> {
        Files.writeString(path, "{}");
        Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("---------"));
        assumeFalse(Files.isReadable(path), "this user reads a file of mode 000 anyway (root or"
            + " CAP_DAC_OVERRIDE)");
      }
      default -> throw new IllegalArgumentException(hostile.name());
    }
  }

  /** What the plugin logged at WARN or above, with the MDC, one string per event. */
  private List<String> warnings() {
    return log.list.stream().filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN))
        .map(e -> e.getFormattedMessage() + " " + e.getMDCPropertyMap()).toList();
  }

  @ParameterizedTest
  @EnumSource(Hostile.class)
  void aCheckpointThatIsNotACheckpointFileIsSetAsideReportedAndTheOtherClaimsAreServed(
      Hostile hostile) throws Exception {
    Path checkpoint = dataDirectory().resolve("checkpoint.json");
    place(hostile, checkpoint);
    ResourceClaim other = stored("other", "gpu-1");

    try (KubeletPlugin plugin = assertTimeoutPreemptively(Duration.ofSeconds(30),
        this::start)) {
      assertThat(driver.errors()).singleElement().satisfies(message -> assertThat(message)
          .startsWith("claim checkpoint " + checkpoint + " was unreadable and was kept aside as "
              + checkpoint + ".corrupt-")
          .contains(switch (hostile) {
            case SPARSE_3_GIB -> "3221225472 bytes, more than the limit of";
            case DIRECTORY -> "a directory";
            case FIFO -> "a FIFO";
            case SYMLINK_TO_SPARSE_FILE -> "a symbolic link";
            case UNREADABLE -> "permission denied";
          }));
      assertThat(prepareError(plugin, other)).as("another claim is served").isEmpty();
      assertThat(unprepareError(plugin, other)).isEmpty();
    }
    assertThat(hardware.counts()).isEmpty();
    try (Stream<Path> files = Files.list(checkpoint.getParent())) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .anySatisfy(name -> assertThat(name).startsWith("checkpoint.json.corrupt-"));
    }
  }

  @ParameterizedTest
  @EnumSource(Hostile.class)
  void aFileNamedLikeAnOrphanedClaimSpecIsSkippedAndTheOtherClaimsAreServed(Hostile hostile)
      throws Exception {
    Path orphan = specOf("0b7a3c1e-5d2f-4a8b-9c6d-1e2f3a4b5c6d");
    place(hostile, orphan);
    ResourceClaim other = stored("other", "gpu-1");

    try (KubeletPlugin plugin = assertTimeoutPreemptively(Duration.ofSeconds(30),
        this::start)) {
      assertThat(prepareError(plugin, other)).as("another claim is served").isEmpty();
      assertThat(unprepareError(plugin, other)).isEmpty();
    }
    assertThat(Files.exists(orphan, LinkOption.NOFOLLOW_LINKS))
        .as("what the driver cannot tell as its own is left alone").isTrue();
    if (hostile == Hostile.SPARSE_3_GIB || hostile == Hostile.SYMLINK_TO_SPARSE_FILE
        || hostile == Hostile.UNREADABLE) {
      assertThat(warnings()).anySatisfy(warning -> assertThat(warning)
          .contains("not removing " + orphan)
          .contains(switch (hostile) {
            case SPARSE_3_GIB -> "3221225472 bytes, more than the limit of";
            case SYMLINK_TO_SPARSE_FILE -> "a symbolic link";
            default -> "permission denied";
          }));
    }
  }

  @Test
  void aDirectoryAtAClaimsSpecPathDoesNotBlockItsUnprepare() throws Exception {
    ResourceClaim claim = stored("mounted", "gpu-0");
    String uid = claim.getMetadata().getUid();
    try (KubeletPlugin plugin = start()) {
      assertThat(prepareError(plugin, claim)).isEmpty();
      // What a bind mount of the missing spec file leaves: a directory where the file was.
      Files.delete(specOf(uid));
      Files.createDirectory(specOf(uid));
      Files.writeString(specOf(uid).resolve("inside"), "not the driver's");

      assertThat(unprepareError(plugin, claim)).isEmpty();
      assertThat(unprepareError(plugin, claim)).as("the kubelet's retry, if any").isEmpty();

      assertThat(hardware.counts()).as("the driver's undo ran").isEmpty();
      assertThat(driver.errors()).anySatisfy(message -> assertThat(message)
          .contains(specOf(uid).toString()).contains("a directory"));
      assertThat(specOf(uid)).as("not the driver's to remove").isDirectory();
    }
    assertThat(driver.calls()).containsExactly("prepare mounted", "unprepare mounted note-mounted");
  }

  @Test
  void aBootIdSourceThatIsAFifoFailsTheStartAtOnceNamingIt() throws Exception {
    Files.delete(bootId);
    mkfifo(bootId);

    assertThatThrownBy(() -> assertTimeoutPreemptively(Duration.ofSeconds(30), this::start))
        .hasMessageContaining("boot ID " + bootId).hasMessageContaining("a FIFO");
  }

  @Test
  void aHugeBootIdSourceFailsTheStartNamingItsSizeAndTheLimit() throws Exception {
    sparse(bootId, SPARSE);

    assertThatThrownBy(this::start).hasMessageContaining("boot ID " + bootId)
        .hasMessageContaining("3221225472 bytes, more than the limit of");
  }

  @Test
  void aCheckpointSetAsideLeavesTheSpecsOfItsClaimsInPlace() throws Exception {
    // A spec the checkpoint held stays when the checkpoint cannot be read: it is what is known.
    ResourceClaim claim = stored("kept", "gpu-0");
    try (KubeletPlugin plugin = start()) {
      assertThat(prepareError(plugin, claim)).isEmpty();
    }
    Path checkpoint = dataDirectory().resolve("checkpoint.json");
    Files.delete(checkpoint);
    sparse(checkpoint, SPARSE);

    try (KubeletPlugin plugin = start()) {
      assertThat(specOf(claim.getMetadata().getUid())).exists();
      assertThat(hardware.holders()).containsEntry("gpu-0",
          Set.of(claim.getMetadata().getUid()));
    }
  }
}
