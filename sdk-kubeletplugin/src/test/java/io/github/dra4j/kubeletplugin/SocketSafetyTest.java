package io.github.dra4j.kubeletplugin;

import static io.github.dra4j.kubeletplugin.testsupport.TestPlugins.DRIVER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.dra4j.kubeletplugin.testsupport.PluginTestBase;
import io.github.dra4j.kubeletplugin.testsupport.RecordingDriver;
import io.github.dra4j.kubeletplugin.testsupport.TestPlugins;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Rules B8, B10 and the project's "never steal a live socket" rule, with real sockets. */
class SocketSafetyTest extends PluginTestBase {

  /** Leaves a socket file nobody listens on, as a killed process does. */
  private static void leaveDeadSocket(Path path) throws Exception {
    try (ServerSocketChannel dead = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      dead.bind(UnixDomainSocketAddress.of(path));
    }
    assertThat(path).exists();
  }

  @Test
  void staleFilesFromAKilledProcessAreReplaced() throws Exception {
    Path registry = Files.createDirectories(root.resolve("registry"));
    Path data = Files.createDirectories(root.resolve("plugins").resolve(DRIVER));
    leaveDeadSocket(registry.resolve(DRIVER + "-reg.sock"));
    Files.writeString(data.resolve("dra.sock"), "not a socket");

    try (KubeletPlugin plugin = TestPlugins.builder(new RecordingDriver(DRIVER), client, root)
        .start()) {
      assertThat(kubelet.getInfo(plugin.registrationSocket()).getName()).isEqualTo(DRIVER);
      assertThat(kubelet.unprepare(plugin.draSocket()).getClaimsCount()).isZero();
    }
  }

  @Test
  void aSocketALiveProcessServesIsNeverTakenOver() {
    try (KubeletPlugin first = TestPlugins.builder(new RecordingDriver(DRIVER), client, root)
        .start()) {
      assertThatThrownBy(
          () -> TestPlugins.builder(new RecordingDriver(DRIVER), client, root).start())
          .isInstanceOf(PluginStartException.class)
          .hasMessage("start DRA service: listen on \"" + first.draSocket() + "\": socket \""
              + first.draSocket() + "\" is served by a live process; refusing to take it over"
              + " (stop that process or choose another socket name)");

      assertThat(first.isServing()).isTrue();
      assertThat(kubelet.getInfo(first.registrationSocket()).getEndpoint())
          .isEqualTo(first.draSocket().toString());
      assertThat(kubelet.unprepare(first.draSocket()).getClaimsCount()).isZero();
    }
  }

  @Test
  void aFailedStartLeavesNoSocketBehind() throws Exception {
    Path registry = Files.createDirectories(root.resolve("registry"));
    Path blocked = registry.resolve(DRIVER + "-reg.sock");
    Files.createDirectory(blocked);

    assertThatThrownBy(() -> TestPlugins.builder(new RecordingDriver(DRIVER), client, root).start())
        .hasMessage("start registrar: start gRPC server: listen on \"" + blocked + "\": socket"
            + " path \"" + blocked + "\" is a directory");

    assertThat(root.resolve("plugins").resolve(DRIVER).resolve("dra.sock")).doesNotExist();
    try (var files = Files.list(registry)) {
      assertThat(files).containsExactly(blocked);
    }
  }

  @Test
  void closingLeavesASocketThatAnotherProcessPutInItsPlaceAlone() throws Exception {
    KubeletPlugin plugin = TestPlugins.builder(new RecordingDriver(DRIVER), client, root).start();
    Path reg = plugin.registrationSocket();
    Files.delete(reg);
    leaveDeadSocket(reg);

    plugin.close();

    assertThat(reg).as("not ours any more").exists();
    assertThat(plugin.draSocket()).doesNotExist();
  }

  @Test
  void aPathTooLongForLinuxIsRefusedWithItsLength() throws Exception {
    Path deep = Files.createDirectories(root.resolve("d".repeat(100)));

    assertThatThrownBy(() -> TestPlugins.builder(new RecordingDriver(DRIVER), client, root)
        .pluginDataDirectory(deep).start())
        .isInstanceOf(PluginStartException.class)
        .hasMessageContaining("Linux allows at most 107");
  }
}
