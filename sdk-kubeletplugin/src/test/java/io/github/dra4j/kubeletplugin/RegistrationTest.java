package io.github.dra4j.kubeletplugin;

import static io.github.dra4j.kubeletplugin.testsupport.TestPlugins.DRIVER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.dra4j.kubelet.wire.registration.v1.PluginInfo;
import io.github.dra4j.kubeletplugin.testsupport.PluginTestBase;
import io.github.dra4j.kubeletplugin.testsupport.RecordingDriver;
import io.github.dra4j.kubeletplugin.testsupport.TestPlugins;
import io.github.dra4j.testing.kubelet.KubeletClient;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RegistrationTest extends PluginTestBase {

  @Test
  void kubeletDiscoversTheSocketAndGetsTheDriversInfo() throws Exception {
    try (KubeletPlugin plugin = TestPlugins.builder(new RecordingDriver(DRIVER), client, root)
        .start()) {
      Path registry = root.resolve("registry");
      assertThat(KubeletClient.registrationSockets(registry))
          .containsExactly(registry.resolve(DRIVER + "-reg.sock"));

      PluginInfo info = kubelet.getInfo(plugin.registrationSocket());

      assertThat(info.getType()).isEqualTo("DRAPlugin");
      assertThat(info.getName()).isEqualTo(DRIVER);
      assertThat(info.getEndpoint())
          .isEqualTo(root.resolve("plugins").resolve(DRIVER).resolve("dra.sock").toString());
      assertThat(info.getSupportedVersionsList())
          .containsExactly("v1.DRAPlugin", "v1beta1.DRAPlugin");
      assertThat(Path.of(info.getEndpoint())).exists();
    }
  }

  @Test
  void healthServicesAreAdvertisedAfterTheNodeServicesWhenTheDriverReportsHealth() {
    try (KubeletPlugin plugin = TestPlugins
        .builder(new RecordingDriver(DRIVER).withHealth(), client, root).start()) {
      assertThat(kubelet.getInfo(plugin.registrationSocket()).getSupportedVersionsList())
          .containsExactly(
              "v1.DRAPlugin", "v1beta1.DRAPlugin", "v1.DRAResourceHealth",
              "v1alpha1.DRAResourceHealth");
    }
  }

  @Test
  void disablingV1LeavesOnlyV1beta1Advertised() {
    try (KubeletPlugin plugin = TestPlugins.builder(new RecordingDriver(DRIVER), client, root)
        .services(s -> s.withNodeV1(false)).start()) {
      assertThat(kubelet.getInfo(plugin.registrationSocket()).getSupportedVersionsList())
          .containsExactly("v1beta1.DRAPlugin");
    }
  }

  @Test
  void registrationStatusIsRecordedAndARejectionIsAnsweredWithTheGoHelpersError() {
    try (KubeletPlugin plugin = TestPlugins.builder(new RecordingDriver(DRIVER), client, root)
        .start()) {
      assertThat(plugin.registrationStatus()).isEmpty();

      kubelet.notifyRegistrationStatus(plugin.registrationSocket(), true, "");
      assertThat(plugin.registrationStatus()).contains(new RegistrationStatus(true, ""));

      assertThatThrownBy(
          () -> kubelet.notifyRegistrationStatus(plugin.registrationSocket(), false,
              "RegisterPlugin error -- x"))
          .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
            assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNKNOWN);
            assertThat(e.getStatus().getDescription())
                .isEqualTo("failed registration process: RegisterPlugin error -- x");
          });
      assertThat(plugin.registrationStatus())
          .isEqualTo(Optional.of(new RegistrationStatus(false, "RegisterPlugin error -- x")));
    }
  }

  @Test
  void mandatoryOptionsFailWithTheGoHelpersMessages() {
    RecordingDriver driver = new RecordingDriver(DRIVER);
    assertThatThrownBy(() -> KubeletPlugin.builder(driver).kubeClient(client).start())
        .isInstanceOf(PluginStartException.class)
        .hasMessage("driver name must be set");
    assertThatThrownBy(() -> KubeletPlugin.builder(driver).driverName(DRIVER).start())
        .hasMessage("Kubernetes client must be set");
    assertThatThrownBy(() -> TestPlugins.builder(driver, client, root)
        .rollingUpdate("11111111-2222-3333-4444-555555555555")
        .sockets(s -> s.withRegistrarSocketFilename("x.sock")).start())
        .hasMessage(
            "rolling updates and explicit registration socket filename are mutually exclusive");
    assertThatThrownBy(() -> TestPlugins.builder(driver, client, root)
        .services(s -> s.withNodeV1(false).withNodeV1beta1(false)).start())
        .hasMessage("no supported DRA gRPC API is implemented and enabled");
    assertThatThrownBy(() -> TestPlugins.builder(driver, client, root)
        .driverName("../../etc").start())
        .hasMessage("driver name \"../../etc\" is invalid: Invalid value: \"../../etc\": a"
            + " lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters,"
            + " '-' or '.', and must start and end with an alphanumeric character (e.g."
            + " 'example.com', regex used for validation is"
            + " '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
  }

  @Test
  void anUpperCaseDriverNameTheServerAcceptsIsRefusedForTheFilesThePluginNamesAfterIt() {
    assertThat(io.github.dra4j.core.name.NameRules.driverName("GPU.example.com")).isEmpty();
    assertThatThrownBy(() -> TestPlugins.builder(new RecordingDriver(DRIVER), client, root)
        .driverName("GPU.example.com").start())
        .isInstanceOf(PluginStartException.class)
        .hasMessage("driver name \"GPU.example.com\" is not usable for a kubelet plugin: it must"
            + " be lower case, as it becomes the vendor of the plugin's CDI kinds (a lower-case DNS"
            + " subdomain) and part of its socket and CDI file names");
  }

  @Test
  void theDraServerStartsBeforeTheRegistrarSoAFailedDraSocketNeverRegisters() throws Exception {
    Path registry = Files.createDirectories(root.resolve("registry"));
    try (WatchService watch = FileSystems.getDefault().newWatchService()) {
      registry.register(watch, StandardWatchEventKinds.ENTRY_CREATE,
          StandardWatchEventKinds.ENTRY_DELETE);

      assertThatThrownBy(() -> TestPlugins.builder(new RecordingDriver(DRIVER), client, root)
          .pluginDataDirectory(root.resolve("does-not-exist"))
          .start())
          .isInstanceOf(PluginStartException.class)
          .hasMessageStartingWith(
              "start DRA service: listen on \"" + root.resolve("does-not-exist/dra.sock") + "\": ");

      WatchKey key = watch.poll();
      assertThat(key == null ? java.util.List.of() : key.pollEvents())
          .as("the registration socket must never have appeared")
          .isEmpty();
      assertThat(KubeletClient.registrationSockets(registry)).isEmpty();
    }
  }

  @Test
  void socketsAreOwnerOnlyByDefaultAndConfigurable() throws Exception {
    try (KubeletPlugin plugin = TestPlugins.builder(new RecordingDriver(DRIVER), client, root)
        .start()) {
      assertThat(PosixFilePermissions.toString(
          Files.getPosixFilePermissions(plugin.registrationSocket())))
          .isEqualTo("rw-------");
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(plugin.draSocket())))
          .isEqualTo("rw-------");
    }
    try (KubeletPlugin plugin = TestPlugins.builder(new RecordingDriver(DRIVER), client, root)
        .sockets(s -> s.withPermissions(PosixFilePermissions.fromString("rw-rw----"))).start()) {
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(plugin.draSocket())))
          .isEqualTo("rw-rw----");
    }
  }

  @Test
  void closingRemovesBothSocketsAndIsIdempotent() throws Exception {
    KubeletPlugin plugin = TestPlugins.builder(new RecordingDriver(DRIVER), client, root).start();
    Path reg = plugin.registrationSocket();
    Path dra = plugin.draSocket();
    assertThat(reg).exists();
    assertThat(dra).exists();

    plugin.close();
    plugin.close();

    assertThat(reg).doesNotExist();
    assertThat(dra).doesNotExist();
    assertThat(plugin.isServing()).isFalse();
    try (var files = Files.list(root.resolve("registry"))) {
      assertThat(files).as("no temporary socket left behind").isEmpty();
    }
  }
}
