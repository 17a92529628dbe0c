package io.github.dra4j.kubeletplugin;

import static io.github.dra4j.kubeletplugin.testsupport.TestPlugins.DRIVER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.dra4j.kubeletplugin.internal.metadata.MetadataWriter;
import io.github.dra4j.kubeletplugin.testsupport.PluginTestBase;
import io.github.dra4j.kubeletplugin.testsupport.RecordingDriver;
import io.github.dra4j.kubeletplugin.testsupport.TestPlugins;
import io.github.dra4j.metrics.PrometheusEndpoint;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The builder's option groups: each group setter changes the group as the calls before it left
 * it, the group reaches the part it configures (here the sockets and the services the kubelet is
 * told about), and the defaults are the documented ones.
 */
class OptionGroupsTest extends PluginTestBase {

  @Test
  void aGroupSetterKeepsWhatEarlierCallsOfItSet() throws Exception {
    try (KubeletPlugin plugin = TestPlugins.builder(new RecordingDriver(DRIVER), client, root)
        .sockets(s -> s.withPermissions(PosixFilePermissions.fromString("rw-rw----")))
        .sockets(s -> s.withPluginSocket("custom.sock"))
        .services(s -> s.withNodeV1(false))
        .services(s -> s.withMaxClaimsPerCall(2))
        .start()) {
      assertThat(plugin.draSocket().getFileName()).hasToString("custom.sock");
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(plugin.draSocket())))
          .isEqualTo("rw-rw----");
      assertThat(kubelet.getInfo(plugin.registrationSocket()).getSupportedVersionsList())
          .containsExactly("v1beta1.DRAPlugin");
    }
  }

  @Test
  void aGroupChangeThatGivesNoGroupIsRefusedNamingTheGroup() {
    KubeletPluginBuilder builder = KubeletPlugin.builder(new RecordingDriver(DRIVER));
    assertThatThrownBy(() -> builder.observability(o -> null)).hasMessage("observability");
    assertThatThrownBy(() -> builder.health(null)).hasMessage("health");
  }

  @Test
  void theDefaultsAreTheDocumentedOnes() {
    assertThat(PosixFilePermissions.toString(SocketOptions.DEFAULTS.permissions()))
        .isEqualTo("rw-------");
    assertThat(SocketOptions.DEFAULTS.checkInterval()).isEqualTo(Duration.ofSeconds(5));
    assertThat(SocketOptions.DEFAULTS.draLimits()).isEqualTo(ServerLimits.DRA_SOCKET);
    assertThat(SocketOptions.DEFAULTS.registrationLimits())
        .isEqualTo(ServerLimits.REGISTRATION_SOCKET);
    assertThat(ServiceOptions.DEFAULTS).isEqualTo(new ServiceOptions(true, true, true, true, 1024));
    assertThat(SerializationOptions.DEFAULTS).isEqualTo(new SerializationOptions(true, null));
    assertThat(ApiServerOptions.DEFAULTS)
        .isEqualTo(new ApiServerOptions(Duration.ofSeconds(60), false, false));
    assertThat(ObservabilityOptions.DEFAULTS).isEqualTo(new ObservabilityOptions(true,
        PrometheusEndpoint.DEFAULT_PATH, false, ServerLimits.LIVENESS_PROBE, true, true));
    assertThat(ShutdownOptions.DEFAULTS).isEqualTo(
        new ShutdownOptions(true, Duration.ofSeconds(10), FatalErrorPolicy.CLOSE));
    assertThat(SliceOptions.DEFAULTS).isEqualTo(new SliceOptions("", null));
    assertThat(MetadataOptions.DEFAULTS.enabled()).isFalse();
    assertThat(MetadataOptions.DEFAULTS.versions()).containsExactly(MetadataWriter.V1ALPHA1);
    assertThat(HealthOptions.DEFAULTS).isEqualTo(
        new HealthOptions(Duration.ofSeconds(10), null, Duration.ofSeconds(1)));
  }

  @Test
  void aWitherChecksItsValueAndLeavesTheGroupAsItWas() {
    assertThatThrownBy(() -> ServiceOptions.DEFAULTS.withMaxClaimsPerCall(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxClaimsPerCall");
    assertThatThrownBy(() -> SliceOptions.DEFAULTS.withSyncDelay(Duration.ZERO))
        .hasMessage("sliceSyncDelay must be positive, got PT0S");
    assertThatThrownBy(() -> ObservabilityOptions.DEFAULTS.withMetricsPath("metrics"))
        .hasMessageContaining("metrics path must be an absolute path");
    assertThat(ServiceOptions.DEFAULTS.maxClaimsPerCall()).isEqualTo(1024);
  }
}
