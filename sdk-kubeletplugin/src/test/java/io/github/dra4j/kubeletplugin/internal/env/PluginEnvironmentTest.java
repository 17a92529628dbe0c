package io.github.dra4j.kubeletplugin.internal.env;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PluginEnvironmentTest {

  @Test
  void everyVariableIsRead() throws Exception {
    PluginEnvironment env = PluginEnvironment.read(Map.ofEntries(
        Map.entry("NODE_NAME", "node-7"),
        Map.entry("POD_UID", "0b9f3c5e-2f0e-4a51-9a5e-5b1f7d2a6c11"),
        Map.entry("KUBELET_REGISTRAR_DIRECTORY_PATH", "/var/lib/kubelet/plugins_registry/"),
        Map.entry("KUBELET_PLUGINS_DIRECTORY_PATH", "/var/lib/kubelet/plugins"),
        Map.entry("CDI_ROOT", "/etc/cdi"),
        Map.entry("HEALTHCHECK_PORT", "51515"),
        Map.entry("HEALTHCHECK_ADDRESS", "10.1.2.3"),
        Map.entry("METRICS_PORT", "-1"),
        Map.entry("KUBECONFIG", "/etc/kube/config"),
        Map.entry("KUBE_API_QPS", "2.5"),
        Map.entry("KUBE_API_BURST", "20")));

    assertThat(env).isEqualTo(new PluginEnvironment(Optional.of("node-7"),
        Optional.of("0b9f3c5e-2f0e-4a51-9a5e-5b1f7d2a6c11"),
        Optional.of(Path.of("/var/lib/kubelet/plugins_registry")),
        Optional.of(Path.of("/var/lib/kubelet/plugins")), Optional.of(Path.of("/etc/cdi")),
        OptionalInt.of(51515), Optional.of(InetAddress.getByName("10.1.2.3")), OptionalInt.of(-1),
        Optional.of(Path.of("/etc/kube/config")),
        OptionalDouble.of(2.5), OptionalInt.of(20)));
  }

  @Test
  void missingAndEmptyVariablesAreUnset() {
    PluginEnvironment env = PluginEnvironment.read(Map.of("NODE_NAME", "", "METRICS_PORT", " "));

    assertThat(env.nodeName()).isEmpty();
    assertThat(env.metricsPort()).isEmpty();
    assertThat(env.kubeconfig()).isEmpty();
    assertThat(env.qps()).isEmpty();
  }

  @ParameterizedTest(name = "{0}={1}")
  @CsvSource(delimiter = '|', textBlock = """
      HEALTHCHECK_PORT                 | abc         | want a port from 0 to 65535, or -1 for none
      HEALTHCHECK_PORT                 | 65536       | want a port from 0 to 65535, or -1 for none
      METRICS_PORT                     | -2          | want a port from 0 to 65535, or -1 for none
      METRICS_PORT                     | 80.5        | want a port from 0 to 65535, or -1 for none
      KUBELET_REGISTRAR_DIRECTORY_PATH | plugins     | want an absolute path
      KUBELET_PLUGINS_DIRECTORY_PATH   | ./plugins   | want an absolute path
      CDI_ROOT                         | var/run/cdi | want an absolute path
      KUBE_API_QPS                     | 0           | want a number above 0
      KUBE_API_QPS                     | fast        | want a number above 0
      KUBE_API_QPS                     | NaN         | want a number above 0
      KUBE_API_BURST                   | 0           | want a whole number above 0
      KUBE_API_BURST                   | 1.5         | want a whole number above 0
      """)
  void aMalformedValueIsRefusedNamingTheVariableAndTheValue(String name, String value,
      String why) {
    assertThatThrownBy(() -> PluginEnvironment.read(Map.of(name, value)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(name + "=\"" + value + "\": " + why);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"node-1.example.com", "10.1.2", "10.1.2.256", "fe80::1::2", "[10.1.2.3]"})
  void aHealthcheckAddressThatIsNoIpAddressIsRefused(String value) {
    assertThatThrownBy(() -> PluginEnvironment.read(Map.of("HEALTHCHECK_ADDRESS", value)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("HEALTHCHECK_ADDRESS=\"" + value + "\": want an IP address, such as the pod's"
            + " own (the downward API's status.podIP), or nothing for every address");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', textBlock = """
      10.244.1.7            | 10.244.1.7
      fd00:10:244::7        | fd00:10:244:0:0:0:0:7
      [fd00:10:244::7]      | fd00:10:244:0:0:0:0:7
      """)
  void theHealthcheckAddressIsAnIpAddressNeverLookedUp(String given, String address) {
    PluginEnvironment env = PluginEnvironment.read(Map.of("HEALTHCHECK_ADDRESS", given));

    assertThat(env.healthcheckAddress()).hasValueSatisfying(
        a -> assertThat(a.getHostAddress()).isEqualTo(address));
  }

  @Test
  void aPodUidThatIsNoUidIsRefused() {
    assertThatThrownBy(() -> PluginEnvironment.read(Map.of("POD_UID", "../../etc")))
        .hasMessageStartingWith("POD_UID=\"../../etc\": ");
  }

  @Test
  void everyMalformedVariableIsNamedAtOnce() {
    assertThatThrownBy(() -> PluginEnvironment.read(Map.of("METRICS_PORT", "x",
        "KUBE_API_BURST", "-3")))
        .hasMessageContaining("METRICS_PORT=\"x\"")
        .hasMessageContaining("; ")
        .hasMessageContaining("KUBE_API_BURST=\"-3\"");
  }

  @Test
  void theRateLimiterLetsABurstThroughThenPacesAtTheRate() {
    RateLimiter limiter = new RateLimiter(10, 3);

    long[] waits = new long[6];
    for (int i = 0; i < waits.length; i++) {
      waits[i] = limiter.reserve();
    }

    assertThat(waits[0]).isZero();
    assertThat(waits[1]).isZero();
    assertThat(waits[2]).isZero();
    // Then one every 100 ms: the 4th waits ~100 ms, the 5th ~200 ms, the 6th ~300 ms.
    assertThat(waits[3]).isBetween(80_000_000L, 100_000_000L);
    assertThat(waits[4]).isBetween(180_000_000L, 200_000_000L);
    assertThat(waits[5]).isBetween(280_000_000L, 300_000_000L);
  }
}
