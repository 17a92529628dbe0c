package io.github.dra4j.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.github.dra4j.resourceapi.FeatureGates;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ApiServerCommandTest {

  @Test
  void parsesPortAndKubeconfigWithOrWithoutSubcommand() {
    assertThat(ApiServerCommand.parse(List.of("apiserver", "--port", "8080", "--kubeconfig", "k")))
        .isEqualTo(new ApiServerCommand.Arguments(8080, Path.of("k"),
            FeatureGates.kubernetes136()));
    assertThat(ApiServerCommand.parse(List.of()))
        .isEqualTo(new ApiServerCommand.Arguments(0, null, FeatureGates.kubernetes136()));
  }

  @Test
  void parsesFeatureGatesOnTopOfTheDefaults() {
    FeatureGates gates = ApiServerCommand.parse(List.of("--feature-gates",
        "DRAConsumableCapacity=true, DRADeviceBindingConditions=false")).featureGates();
    assertThat(gates.enabled(FeatureGates.DRA_CONSUMABLE_CAPACITY)).isTrue();
    assertThat(gates.enabled(FeatureGates.DRA_DEVICE_BINDING_CONDITIONS)).isFalse();
    assertThat(gates.enabled(FeatureGates.DRA_PRIORITIZED_LIST))
        .isEqualTo(FeatureGates.kubernetes136().enabled(FeatureGates.DRA_PRIORITIZED_LIST));
    assertThatThrownBy(() -> ApiServerCommand.parse(List.of("--feature-gates", "DRANope=true")))
        .hasMessageStartingWith("--feature-gates: unrecognized feature gate: DRANope; known"
            + " gates: DRAAdminAccess, ");
    assertThatThrownBy(() -> ApiServerCommand.parse(List.of("--feature-gates",
        "DRAConsumableCapacity=yes")))
        .hasMessage("--feature-gates: invalid value of DRAConsumableCapacity=yes, err:"
            + " strconv.ParseBool: parsing \"yes\": invalid syntax");
    assertThatThrownBy(() -> ApiServerCommand.parse(List.of("--feature-gates",
        "DRAAdminAccess=false")))
        .hasMessage("--feature-gates: cannot set feature gate DRAAdminAccess to false, feature is"
            + " locked to true");
  }

  @Test
  void rejectsBadArgumentsNamingThem() {
    assertThatThrownBy(() -> ApiServerCommand.parse(List.of("--port", "x")))
        .hasMessage("--port: not a number: \"x\"");
    assertThatThrownBy(() -> ApiServerCommand.parse(List.of("--port", "70000")))
        .hasMessage("--port: out of range 0..65535: 70000");
    assertThatThrownBy(() -> ApiServerCommand.parse(List.of("--kubeconfig")))
        .hasMessage("--kubeconfig: missing value");
    assertThatThrownBy(() -> ApiServerCommand.parse(List.of("--verbose")))
        .hasMessage("unknown argument: \"--verbose\"");
  }

  @Test
  void writesAKubeconfigAClientCanUse(@TempDir Path dir) throws Exception {
    Path kubeconfig = dir.resolve("sub/kubeconfig");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (InMemoryApiServer server = ApiServerCommand.start(
        new ApiServerCommand.Arguments(0, kubeconfig, FeatureGates.kubernetes136()),
        new PrintStream(out, true, StandardCharsets.UTF_8))) {
      assertThat(out.toString(StandardCharsets.UTF_8))
          .contains("listening on " + server.url())
          .contains("kubeconfig written to " + kubeconfig.toAbsolutePath());
      Config config = Config.fromKubeconfig(Files.readString(kubeconfig));
      try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
        client.nodes().resource(new NodeBuilder().withNewMetadata().withName("n1").endMetadata()
            .build()).create();
        assertThat(server.client().nodes().withName("n1").get()).isNotNull();
      }
    }
  }
}
