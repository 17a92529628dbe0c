package io.github.dra4j.kubeletplugin;

import static io.github.dra4j.kubeletplugin.testsupport.TestPlugins.DRIVER;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.github.dra4j.kubelet.wire.dra.v1.DraV1Proto;
import io.github.dra4j.kubelet.wire.dra.v1beta1.DraV1beta1Proto;
import io.github.dra4j.kubelet.wire.health.v1.HealthV1Proto;
import io.github.dra4j.kubelet.wire.health.v1alpha1.HealthV1alpha1Proto;
import io.github.dra4j.kubelet.wire.registration.v1.RegistrationProto;
import io.github.dra4j.kubeletplugin.testsupport.ClaimFixtures;
import io.github.dra4j.kubeletplugin.testsupport.RecordingDriver;
import io.github.dra4j.kubeletplugin.testsupport.TestPlugins;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The wire format checked with a second gRPC implementation: Debian's python3-grpcio (gRPC C
 * core) plays the kubelet against the Java plugin, with message classes built from the
 * descriptors of dra4j's own protos. Skipped, saying why, where the package is not installed
 * ({@code .ci/run} installs it).
 */
@EnableKubernetesMockClient(crud = true)
class PythonInteropTest {

  private static final Path PYTHON = Path.of("/usr/bin/python3");

  KubernetesClient client;
  @TempDir
  Path root;

  @BeforeAll
  static void requirePythonGrpc() throws Exception {
    Assumptions.assumeTrue(Files.isExecutable(PYTHON),
        "skipped: /usr/bin/python3 is not installed");
    Process probe = new ProcessBuilder(PYTHON.toString(), "-c", "import grpc, google.protobuf")
        .redirectErrorStream(true).start();
    String output = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    boolean exited = probe.waitFor(60, TimeUnit.SECONDS);
    Assumptions.assumeTrue(exited && probe.exitValue() == 0,
        "skipped: Debian's python3-grpcio and python3-protobuf are not installed"
            + " (apt-get install python3-grpcio python3-protobuf): " + output.strip());
  }

  @Test
  void pythonGrpcPlaysTheKubeletAgainstTheJavaPlugin() throws Exception {
    Path descriptors = root.resolve("dra4j-protos.pb");
    FileDescriptorSet.Builder set = FileDescriptorSet.newBuilder();
    for (var file : List.of(RegistrationProto.getDescriptor(), DraV1Proto.getDescriptor(),
        DraV1beta1Proto.getDescriptor(), HealthV1Proto.getDescriptor(),
        HealthV1alpha1Proto.getDescriptor())) {
      set.addFile(file.toProto());
    }
    Files.write(descriptors, set.build().toByteArray());
    Path script = root.resolve("kubelet_client.py");
    try (InputStream in = getClass().getResourceAsStream("/interop/kubelet_client.py")) {
      Files.copy(in, script);
    }
    String uid = ClaimFixtures.store(client, ClaimFixtures.allocated("default", "py", DRIVER))
        .getMetadata().getUid();
    RecordingDriver driver = new RecordingDriver(DRIVER).withHealth()
        .answering(c -> PrepareResult.prepared(PreparedDevice.builder("node-1", "gpu-0")
            .request("gpu/sub").cdiDeviceId("example.com/gpu=py").shareId("s1").build()));

    Map<String, Object> result;
    try (KubeletPlugin plugin = TestPlugins.builder(driver, client, root).start()) {
      plugin.deviceHealth().report(DeviceHealth.healthy("node-1", "gpu-0"));
      Process python = new ProcessBuilder(PYTHON.toString(), script.toString(),
          descriptors.toString(), root.resolve("registry").toString(), "default", "py", uid)
          .redirectError(root.resolve("python.err").toFile()).start();
      String out = new String(python.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(python.waitFor(120, TimeUnit.SECONDS)).isTrue();
      assertThat(python.exitValue())
          .as("python stderr: %s", Files.readString(root.resolve("python.err"))).isZero();
      @SuppressWarnings("unchecked") // the script prints one JSON object
      Map<String, Object> parsed = client.getKubernetesSerialization().unmarshal(out, Map.class);
      result = parsed;
      assertThat(plugin.registrationStatus()).contains(new RegistrationStatus(true, ""));
    }

    assertThat(result.get("info")).isEqualTo(Map.of(
        "type", "DRAPlugin", "name", DRIVER,
        "endpoint", root.resolve("plugins").resolve(DRIVER).resolve("dra.sock").toString(),
        "versions", List.of("v1.DRAPlugin", "v1beta1.DRAPlugin", "v1.DRAResourceHealth",
            "v1alpha1.DRAResourceHealth")));
    assertThat(result.get("v1")).isEqualTo(Map.of("error", "", "devices", List.of(Map.of(
        "pool", "node-1", "device", "gpu-0", "cdi", List.of("example.com/gpu=py"),
        "requests", List.of("gpu"), "hasShareId", true))));
    assertThat(result.get("v1beta1")).isEqualTo(Map.of("error", "", "devices", List.of(Map.of(
        "pool", "node-1", "device", "gpu-0", "cdi", List.of("example.com/gpu=py"),
        "requests", List.of("gpu")))));
    assertThat(result.get("unprepareError")).isEqualTo("");
    Map<String, Object> healthy = Map.of("pool", "node-1", "device", "gpu-0", "health", 1);
    assertThat(result.get("healthV1")).isEqualTo(List.of(healthy));
    assertThat(result.get("healthV1alpha1")).isEqualTo(List.of(healthy));
  }
}
