package io.github.dra4j.testing.kubelet;

import static io.github.dra4j.testing.kubelet.Poll.LONG;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.dra4j.kubelet.wire.registration.v1.PluginInfo;
import io.github.dra4j.kubelet.wire.registration.v1.RegistrationStatus;
import io.grpc.Status;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What the kubelet says to plugins it cannot accept, and how it retries them. */
class RejectionTest extends NodeTest {

  private static final String DRIVER = "odd.example.com";

  private FakeKubelet kubelet;

  @BeforeEach
  void start() {
    kubelet = node.kubelet();
  }

  private RawPlugin raw(String socketName, PluginInfo info) {
    return node.own(RawPlugin.serve(node.registry.resolve(socketName), info));
  }

  private static RegistrationStatus rejected(String text) {
    return RegistrationStatus.newBuilder().setPluginRegistered(false).setError(text).build();
  }

  private static RegistrationStatus accepted() {
    return RegistrationStatus.newBuilder().setPluginRegistered(true).build();
  }

  private static RegistrationStatus firstNotification(RawPlugin plugin) {
    Poll.until(LONG, () -> assertThat(plugin.notifications()).isNotEmpty());
    return plugin.notifications().get(0);
  }

  @Test
  void pluginOfAnotherTypeHasNoHandler() {
    Path socket = node.registry.resolve("csi.sock");
    RawPlugin plugin = raw("csi.sock", RawPlugin.info(DRIVER, null, "v1.DRAPlugin").toBuilder()
        .setType("CSIPlugin").build());

    assertThat(firstNotification(plugin)).isEqualTo(rejected(
        "RegisterPlugin error -- no handler registered for plugin type: CSIPlugin at socket "
            + socket));
    assertThat(kubelet.plugins()).isEmpty();
  }

  @Test
  void pluginWithoutServicesFailsValidation() {
    RawPlugin plugin = raw("none.sock", RawPlugin.info(DRIVER, null));

    assertThat(firstNotification(plugin)).isEqualTo(rejected(
        "RegisterPlugin error -- plugin validation failed with err: empty list of supported gRPC"
            + " services (aka supported versions)"));
  }

  @Test
  void pluginWithOnlyUnknownServicesFailsValidationAndIsRetriedUntilItIsFixed() {
    RawPlugin plugin = raw("old.sock",
        RawPlugin.info(DRIVER, null, "v1alpha3.NodeService", "v1.DRAResourceHealth"));
    RegistrationStatus rejection = rejected(
        "RegisterPlugin error -- plugin validation failed with err: none of services supported by"
            + " the plugin ([v1alpha3.NodeService v1.DRAResourceHealth]) are supported by the"
            + " kubelet ([v1.DRAPlugin v1beta1.DRAPlugin])");

    assertThat(firstNotification(plugin)).isEqualTo(rejection);
    Poll.until(LONG, () -> assertThat(plugin.notifications()).hasSizeGreaterThanOrEqualTo(3));
    assertThat(plugin.notifications()).containsOnly(rejection);

    plugin.answer(RawPlugin.info(DRIVER, null, "v1alpha3.NodeService", "v1beta1.DRAPlugin"));

    Poll.until(LONG, () -> assertThat(plugin.notifications()).last().isEqualTo(accepted()));
    assertThat(kubelet.plugins(DRIVER)).singleElement()
        .extracting(RegisteredPlugin::service).isEqualTo(DraService.V1BETA1);
  }

  @Test
  void firstKnownServiceInThePluginsOrderIsChosen() {
    raw("beta.sock", RawPlugin.info("beta.example.com", null,
        "v1alpha1.DRAResourceHealth", "v1beta1.DRAPlugin", "v1.DRAPlugin"));
    raw("v1.sock", RawPlugin.info("v1.example.com", null,
        "v1.DRAPlugin", "v1beta1.DRAPlugin", "v1.DRAResourceHealth"));

    List<RegisteredPlugin> plugins = kubelet.awaitPlugins(all -> all.size() == 2, LONG);

    assertThat(plugins).filteredOn(p -> p.driver().equals("beta.example.com")).singleElement()
        .satisfies(p -> {
          assertThat(p.service()).isEqualTo(DraService.V1BETA1);
          assertThat(p.healthService()).isEqualTo(HealthService.V1ALPHA1);
        });
    assertThat(plugins).filteredOn(p -> p.driver().equals("v1.example.com")).singleElement()
        .satisfies(p -> {
          assertThat(p.service()).isEqualTo(DraService.V1);
          assertThat(p.healthService()).isEqualTo(HealthService.V1);
        });
  }

  @Test
  void emptyEndpointMeansTheRegistrationSocket() {
    raw("self.sock", RawPlugin.info(DRIVER, null, "v1.DRAPlugin"));

    RegisteredPlugin plugin = kubelet.awaitPlugins(all -> all.size() == 1, LONG).get(0);

    assertThat(plugin.endpoint()).isEqualTo(node.registry.resolve("self.sock").toString());
  }

  @Test
  void secondInstanceWithTheSameEndpointIsRejected() {
    Path endpoint = node.data.resolve("shared.sock");
    RawPlugin first = raw("a.sock", RawPlugin.info(DRIVER, endpoint, "v1.DRAPlugin"));
    assertThat(firstNotification(first)).isEqualTo(accepted());

    RawPlugin second = raw("b.sock", RawPlugin.info(DRIVER, endpoint, "v1.DRAPlugin"));

    assertThat(firstNotification(second)).isEqualTo(rejected(
        "RegisterPlugin error -- plugin registration failed with err: endpoint " + endpoint
            + " already registered for DRA driver plugin " + DRIVER));
    assertThat(kubelet.plugins(DRIVER)).singleElement()
        .extracting(RegisteredPlugin::registrationSocket)
        .isEqualTo(node.registry.resolve("a.sock"));
  }

  @Test
  void getInfoThatNeverAnswersHitsTheDeadlineAndIsRetried() {
    RawPlugin plugin = node.own(RawPlugin.serve(node.registry.resolve("slow.sock"),
        RawPlugin.info(DRIVER, null, "v1.DRAPlugin")));
    plugin.hangGetInfo(true);

    Poll.until(LONG, () -> assertThat(kubelet.calls().entries(KubeletMethod.GET_INFO))
        .isNotEmpty()
        .allSatisfy(call -> assertThat(call.status().getCode())
            .isEqualTo(Status.Code.DEADLINE_EXCEEDED)));
    assertThat(plugin.notifications()).isEmpty();

    plugin.hangGetInfo(false);

    Poll.until(LONG, () -> assertThat(plugin.notifications()).containsExactly(accepted()));
    assertThat(kubelet.plugins(DRIVER)).hasSize(1);
  }

  @Test
  void failedNotificationUndoesTheRegistrationAndRetries() {
    RawPlugin plugin = raw("flaky.sock", RawPlugin.info(DRIVER, null, "v1.DRAPlugin"));
    plugin.failNextNotifications(1);

    Poll.until(LONG, () -> assertThat(plugin.notifications())
        .containsExactly(accepted(), accepted()));

    // The kubelet logs a call when its answer arrives, just after the plugin saw it.
    Poll.until(LONG, () -> assertThat(
        kubelet.calls().entries(KubeletMethod.NOTIFY_REGISTRATION_STATUS))
        .extracting(call -> call.status().getCode())
        .containsExactly(Status.Code.UNAVAILABLE, Status.Code.OK));
    assertThat(kubelet.plugins(DRIVER)).hasSize(1);
  }
}
