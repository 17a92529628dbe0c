package io.github.dra4j.lifecycle;

import static io.github.dra4j.kubeletplugin.testsupport.TestPlugins.DRIVER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.github.dra4j.cdi.spec.ContainerEdits;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.kubeletplugin.PluginStartException;
import io.github.dra4j.kubeletplugin.testsupport.PluginTestBase;
import io.github.dra4j.kubeletplugin.testsupport.TestPlugins;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A directory the pod does not have stops the start with one line naming the path and the
 * setting, before any CDI spec, checkpoint or data directory is written.
 */
class StartupDirectoriesTest extends PluginTestBase {

  KubernetesMockServer server;

  private Path cdi;
  private Path bootId;

  @BeforeEach
  void setUp() throws IOException {
    cdi = Files.createDirectories(root.resolve("cdi"));
    bootId = Files.writeString(root.resolve("boot_id"), "boot-1\n");
  }

  /** A lifecycle that writes a node-wide CDI spec at start, the first write of a start. */
  private ClaimLifecycle<CountingGpuDriver.State> lifecycle(Path cdiDirectory) {
    return ClaimLifecycle.builder(new CountingGpuDriver(new CountingHardware(
        root.resolve("hardware.json"))), CountingGpuDriver.State.class)
        .bootIdSource(bootId).cdiDirectory(cdiDirectory)
        .commonDevice("common", ContainerEdits.builder().env("NODE", "node-1").build())
        .build();
  }

  private static long files(Path directory) throws IOException {
    if (!Files.isDirectory(directory)) {
      return 0;
    }
    try (Stream<Path> entries = Files.list(directory)) {
      return entries.count();
    }
  }

  @Test
  void aMissingRegistrationDirectoryStopsTheStartBeforeACdiSpecIsWritten() throws IOException {
    Path missing = root.resolve("not-mounted/plugins_registry");
    Path data = root.resolve("plugins").resolve(DRIVER);

    assertThatThrownBy(() -> TestPlugins.builder(lifecycle(cdi), client, root)
        .registrarDirectory(missing).start())
        .isInstanceOf(PluginStartException.class)
        .hasMessage("kubelet plugin registration directory " + missing + " does not exist (set"
            + " by KubeletPluginBuilder.registrarDirectory or KUBELET_REGISTRAR_DIRECTORY_PATH):"
            + " mount it into the pod or change the setting");
    assertThat(files(cdi)).as("no CDI spec written").isZero();
    assertThat(files(data)).as("no checkpoint or lock written").isZero();
  }

  @Test
  void aCdiDirectoryThatCannotBeCreatedStopsTheStartNamingItsSetting() throws IOException {
    Path missing = root.resolve("run-not-mounted/cdi");
    Path data = root.resolve("plugins").resolve(DRIVER);

    assertThatThrownBy(() -> TestPlugins.builder(lifecycle(missing), client, root).start())
        .isInstanceOf(PluginStartException.class)
        .hasMessageContaining("CDI directory " + missing + " does not exist, nor does its parent "
            + missing.getParent() + " (set by ClaimLifecycle.Builder.cdiDirectory)")
        .message().doesNotContain("\n");
    assertThat(missing.getParent()).doesNotExist();
    assertThat(files(data)).as("no checkpoint or lock written").isZero();
  }

  @Test
  void aCdiDirectoryThatIsAFileIsRefused() throws IOException {
    Path file = Files.writeString(root.resolve("cdi-file"), "x");
    assertThatThrownBy(() -> TestPlugins.builder(lifecycle(file), client, root).start())
        .isInstanceOf(PluginStartException.class)
        .hasMessageContaining("CDI directory " + file + " is not a directory");
  }

  @Test
  void aMissingCdiDirectoryInAnExistingParentIsCreated() throws IOException {
    Path created = root.resolve("run/cdi");
    Files.createDirectories(created.getParent());
    try (KubeletPlugin plugin = TestPlugins.builder(lifecycle(created), client, root).start()) {
      assertThat(plugin.isServing()).isTrue();
      assertThat(files(created)).as("the common spec").isEqualTo(1);
    }
  }
}
