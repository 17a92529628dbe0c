package io.github.dra4j.testing.kubelet;

import static io.github.dra4j.testing.kubelet.Poll.LONG;
import static io.github.dra4j.testing.kubelet.TestNode.DRIVER;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.kubeletplugin.RegistrationStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Discovery and registration of SDK plugins by the fake kubelet. */
class SdkPluginRegistrationTest extends SdkPluginNodeTest {

  @Test
  void pluginThatWasThereFirstIsRegisteredAndNotified() {
    KubeletPlugin plugin = startPlugin(plugin(new TestDriver(DRIVER)));
    FakeKubelet kubelet = node.kubelet();

    RegisteredPlugin registered = kubelet.awaitRegistered(plugin.registrationSocket(), LONG);

    assertThat(registered.driver()).isEqualTo(DRIVER);
    assertThat(registered.endpoint()).isEqualTo(plugin.draSocket().toString());
    assertThat(registered.registrationSocket()).isEqualTo(plugin.registrationSocket());
    assertThat(registered.service()).isEqualTo(DraService.V1);
    assertThat(registered.supportedServices())
        .containsExactly("v1.DRAPlugin", "v1beta1.DRAPlugin");
    assertThat(registered.healthService()).isNull();
    assertThat(registered.connected()).isTrue();
    Poll.until(LONG, () -> assertThat(plugin.registrationStatus())
        .contains(new RegistrationStatus(true, "")));

    assertThat(kubelet.calls().entries(KubeletMethod.GET_INFO)).singleElement()
        .satisfies(call -> {
          assertThat(call.driver()).isEqualTo(DRIVER);
          assertThat(call.target()).isEqualTo(plugin.registrationSocket().toString());
          assertThat(call.service()).isEqualTo("pluginregistration.Registration");
          assertThat(call.isSuccess()).isTrue();
        });
    // Registration completes before the notification's answer arrives and is logged.
    Poll.until(LONG, () -> assertThat(
        kubelet.calls().entries(KubeletMethod.NOTIFY_REGISTRATION_STATUS)).singleElement()
        .satisfies(call -> {
          assertThat(call.request()).isEqualTo(
              io.github.dra4j.kubelet.wire.registration.v1.RegistrationStatus.newBuilder()
                  .setPluginRegistered(true).build());
          assertThat(call.isSuccess()).isTrue();
        }));
  }

  @Test
  void socketCreatedLaterInANewSubdirectoryIsFound() throws Exception {
    FakeKubelet kubelet = node.kubelet();
    Path subdirectory = Files.createDirectories(node.registry.resolve("nested").resolve("deeper"));

    KubeletPlugin plugin = startPlugin(plugin(new TestDriver(DRIVER))
        .registrarDirectory(subdirectory));

    assertThat(kubelet.awaitRegistered(plugin.registrationSocket(), LONG).registrationSocket())
        .isEqualTo(subdirectory.resolve(DRIVER + "-reg.sock"));
  }

  @Test
  void dotFilesAndFilesThatAreNotSocketsAreIgnored() throws Exception {
    Files.writeString(node.registry.resolve("plain.sock"), "not a socket");
    RawPlugin hidden = node.own(RawPlugin.serve(node.registry.resolve(".hidden.sock"),
        RawPlugin.info("hidden.example.com", null, "v1.DRAPlugin")));
    FakeKubelet kubelet = node.kubelet();
    KubeletPlugin plugin = startPlugin(plugin(new TestDriver(DRIVER)));

    kubelet.awaitRegistered(plugin.registrationSocket(), LONG);

    Poll.holdsFor(Duration.ofMillis(500), () -> {
      assertThat(hidden.getInfoCalls()).isZero();
      assertThat(kubelet.plugins()).extracting(RegisteredPlugin::driver).containsExactly(DRIVER);
    });
    assertThat(kubelet.calls().entries(KubeletMethod.GET_INFO))
        .extracting(CallRecord::target)
        .containsOnly(plugin.registrationSocket().toString());
  }

  @Test
  void removedSocketDeregistersAndARecreatedOneRegistersAgain() {
    FakeKubelet kubelet = node.kubelet(b -> b.wipingDelay(Duration.ofMinutes(10)));
    KubeletPlugin first = startPlugin(plugin(new TestDriver(DRIVER)));
    kubelet.awaitRegistered(first.registrationSocket(), LONG);

    first.close();
    kubelet.awaitDeregistered(first.registrationSocket(), LONG);
    assertThat(kubelet.plugins(DRIVER)).isEmpty();
    assertThat(kubelet.chosenPlugin(DRIVER)).isEmpty();

    KubeletPlugin second = startPlugin(plugin(new TestDriver(DRIVER)));
    RegisteredPlugin again = kubelet.awaitRegistered(second.registrationSocket(), LONG);

    assertThat(again.registrationSocket()).isEqualTo(first.registrationSocket());
    Poll.until(LONG, () -> assertThat(second.registrationStatus())
        .contains(new RegistrationStatus(true, "")));
    List<CallRecord> getInfo = kubelet.calls().entries(KubeletMethod.GET_INFO);
    assertThat(getInfo).hasSize(2).allMatch(CallRecord::isSuccess);
  }
}
