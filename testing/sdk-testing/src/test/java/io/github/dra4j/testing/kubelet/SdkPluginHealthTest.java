package io.github.dra4j.testing.kubelet;

import static io.github.dra4j.testing.kubelet.Poll.LONG;
import static io.github.dra4j.testing.kubelet.TestNode.DRIVER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.github.dra4j.kubeletplugin.DeviceHealth;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The device health streams the fake kubelet opens to SDK plugins that advertise one. */
class SdkPluginHealthTest extends SdkPluginNodeTest {

  @Test
  void followsTheV1StreamOfAnSdkPlugin() {
    FakeKubelet kubelet = node.kubelet(b -> b);
    KubeletPlugin plugin = startPlugin(plugin(new TestDriver(DRIVER, true)));
    assertThat(kubelet.awaitRegistered(plugin.registrationSocket(), LONG).healthService())
        .isEqualTo(HealthService.V1);

    plugin.deviceHealth().report(DeviceHealth.healthy("pool", "gpu-0"),
        DeviceHealth.unhealthy("pool", "gpu-1", "too hot"));

    Poll.until(LONG, () -> assertThat(kubelet.deviceHealth(DRIVER))
        .extracting(ObservedDeviceHealth::deviceName, ObservedDeviceHealth::state,
            ObservedDeviceHealth::message, ObservedDeviceHealth::timeout)
        .containsExactly(tuple("gpu-0", DeviceHealthStatus.HEALTHY, "", Duration.ofSeconds(30)),
            tuple("gpu-1", DeviceHealthStatus.UNHEALTHY, "too hot", Duration.ofSeconds(30))));

    plugin.deviceHealth().report(DeviceHealth.unhealthy("pool", "gpu-0", "fan stopped"));

    Poll.until(LONG, () -> assertThat(kubelet.deviceHealth(DRIVER).get(0).state())
        .isEqualTo(DeviceHealthStatus.UNHEALTHY));
    assertThat(kubelet.calls().entries(KubeletMethod.NODE_WATCH_RESOURCES))
        .isNotEmpty()
        .allSatisfy(call -> {
          assertThat(call.service()).isEqualTo("v1.DRAResourceHealth");
          assertThat(call.target()).isEqualTo(plugin.draSocket().toString());
          assertThat(call.response()).isNotNull();
        });
  }

  @Test
  void aRestartedKubeletOpensTheStreamAgain() {
    FakeKubelet kubelet = node.kubelet();
    KubeletPlugin plugin = startPlugin(plugin(new TestDriver(DRIVER, true)));
    kubelet.awaitRegistered(plugin.registrationSocket(), LONG);
    plugin.deviceHealth().report(DeviceHealth.healthy("pool", "gpu-0"));
    Poll.until(LONG, () -> assertThat(kubelet.deviceHealth(DRIVER)).hasSize(1));

    kubelet.restart();

    Poll.until(LONG, () -> assertThat(kubelet.deviceHealth(DRIVER)).singleElement()
        .extracting(ObservedDeviceHealth::state).isEqualTo(DeviceHealthStatus.HEALTHY));
    Poll.holdsFor(Duration.ofMillis(300),
        () -> assertThat(kubelet.deviceHealth(DRIVER)).hasSize(1));
    assertThat(kubelet.calls().entries(KubeletMethod.NODE_WATCH_RESOURCES))
        .extracting(CallRecord::isSuccess).contains(false);
  }

  @Test
  void noStreamWhenHealthIsOff() {
    FakeKubelet kubelet = node.kubelet(b -> b.healthStreams(false));
    KubeletPlugin plugin = startPlugin(plugin(new TestDriver(DRIVER, true)));

    assertThat(kubelet.awaitRegistered(plugin.registrationSocket(), LONG).healthService())
        .isNull();
    plugin.deviceHealth().report(DeviceHealth.healthy("pool", "gpu-0"));
    Poll.holdsFor(Duration.ofMillis(300), () -> {
      assertThat(kubelet.calls().entries(KubeletMethod.NODE_WATCH_RESOURCES)).isEmpty();
      assertThat(kubelet.deviceHealth(DRIVER)).isEmpty();
    });
  }
}
