package io.github.dra4j.cli.explain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The real kubectl 1.35 runs the plugin: the {@code kubectl-dra4j} launcher this module ships
 * (from {@code src/main/sh}, run on this module's class path) is on the {@code PATH}, kubectl finds
 * it and hands it {@code explain ...} and its environment (the kubeconfig of an in-memory API
 * server holding {@link ExplainFixture}). Skipped, with the reason, where no kubectl 1.35 or newer
 * is found ({@code DRA4J_KUBECTL}, {@code ~/.cache/dra4j/kubectl-1.35/kubectl}, filled by {@code
 * testing/sdk-testing-apiserver/src/test/kubectl/install-kubectl.sh}).
 */
class KubectlPluginTest {

  @TempDir
  Path dir;

  private InMemoryApiServer server;
  private Path kubectl;
  private Path bin;

  /** What kubectl printed. */
  record Result(int status, String out, String err) {}

  @BeforeEach
  void start() throws Exception {
    Optional<Path> found = findKubectl();
    assumeTrue(found.isPresent(), "kubectl 1.35 or newer not found, kubectl plugin tests skipped;"
        + " run testing/sdk-testing-apiserver/src/test/kubectl/install-kubectl.sh or set"
        + " DRA4J_KUBECTL");
    kubectl = found.get();
    bin = Files.createDirectories(dir.resolve("bin"));
    Path launcher = bin.resolve("kubectl-dra4j");
    Files.copy(Path.of("src/main/sh/kubectl-dra4j"), launcher, StandardCopyOption.REPLACE_EXISTING);
    assertThat(launcher.toFile().setExecutable(true)).isTrue();
    server = InMemoryApiServer.builder().port(0).build().start();
    server.writeKubeconfig(dir.resolve("kubeconfig"));
    ExplainFixture.create(server.client());
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private static Optional<Path> findKubectl() throws Exception {
    List<Path> candidates = new ArrayList<>();
    String variable = System.getenv("DRA4J_KUBECTL");
    if (variable != null && !variable.isBlank()) {
      candidates.add(Path.of(variable));
    }
    candidates.add(Path.of(System.getProperty("user.home"), ".cache", "dra4j", "kubectl-1.35",
        "kubectl"));
    for (Path candidate : candidates) {
      if (!Files.isExecutable(candidate)) {
        continue;
      }
      Process p = new ProcessBuilder(candidate.toString(), "version", "--client", "-o", "json")
          .redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0
          && out.matches("(?s).*\"minor\"\\s*:\\s*\"(3[5-9]|[4-9]\\d)\".*")) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  private Result kubectl(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(kubectl.toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile());
    Map<String, String> env = builder.environment();
    String path = env.getOrDefault("PATH", "/usr/bin:/bin");
    env.clear();
    env.put("PATH", bin + File.pathSeparator + path);
    env.put("HOME", dir.toString());
    env.put("KUBECONFIG", dir.resolve("kubeconfig").toString());
    env.put("JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
    env.put("DRA4J_CLASSPATH", System.getProperty("java.class.path"));
    // As the jar's slf4j-simple does: warnings only, on standard error (the class path holds
    // logback, whose test configuration logs at DEBUG to standard output).
    Path logback = Files.writeString(dir.resolve("logback.xml"), "<configuration><appender"
        + " name=\"err\" class=\"ch.qos.logback.core.ConsoleAppender\"><target>System.err</target>"
        + "<encoder><pattern>%level %logger - %msg%n</pattern></encoder></appender>"
        + "<root level=\"WARN\"><appender-ref ref=\"err\"/></root></configuration>");
    env.put("DRA4J_JAVA_OPTS", "-Dlogback.configurationFile=" + logback);
    Path out = dir.resolve("out.txt");
    Path err = dir.resolve("err.txt");
    Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
    return new Result(process.exitValue(), Files.readString(out), Files.readString(err));
  }

  @Test
  void kubectlFindsThePluginOnThePath() throws Exception {
    Result list = kubectl("plugin", "list");
    assertThat(list.out()).contains(bin.resolve("kubectl-dra4j").toString());
  }

  @Test
  void kubectlDra4jExplainClaim() throws Exception {
    Result result = kubectl("dra4j", "explain", "claim", "gpu-claim", "-n", "gpu-test",
        "--node", "node-1");
    assertThat(result.status()).as(result.err()).isZero();
    assertThat(result.out()).contains(
        "ResourceClaim gpu-test/gpu-claim",
        "Node node-1: cannot allocate all claims",
        "      gpu.example.com/node-1/gpu-0: class selector false - class gpu.example.com selector"
            + " #0 is false: device.attributes[\"gpu.example.com\"].model == \"A100\"",
        "      gpu.example.com/node-1/gpu-2: taint not tolerated - taint health=bad:NoSchedule is"
            + " not tolerated by the request",
        "      gpu.example.com/node-1/gpu-3: already allocated - allocated to claim gpu-test/holder",
        "      gpu.example.com/node-1/gpu-4: counters exhausted",
        "      gpu.example.com/node-1/gpu-5: capacity insufficient",
        "      gpu.example.com/node-2/gpu-0: wrong node - slice node-2-gpus is published for node"
            + " node-2");
  }

  @Test
  void kubectlDra4jExplainPodAsJson() throws Exception {
    Result result = kubectl("dra4j", "explain", "pod", "pod0", "-n", "gpu-test", "-o", "json");
    assertThat(result.status()).as(result.err()).isZero();
    JsonNode root = JsonMapper.builder().build().readTree(result.out());
    assertThat(root.at("/target/kind").asString()).isEqualTo("Pod");
    assertThat(root.at("/claims/0/name").asString()).isEqualTo("holder");
    assertThat(root.at("/claims/0/state").asString()).isEqualTo("allocated");
    assertThat(root.at("/claims/0/findings/0/check").asString()).isEqualTo("reservedFor");
    assertThat(root.at("/claims/0/findings/0/ok").asBoolean()).isFalse();
    assertThat(root.at("/claims/1/source").asString()).isEqualTo("ResourceClaimTemplate");
    assertThat(root.at("/nodes/0/outcome").asString()).isEqualTo("allocatable");
    assertThat(root.at("/nodes/0/claims/0/requests/0/allocated/0").asString())
        .isEqualTo("gpu.example.com/node-1/gpu-1");
  }

  @Test
  void aMissingClaimFailsThroughKubectl() throws Exception {
    Result result = kubectl("dra4j", "explain", "claim", "nope", "-n", "gpu-test");
    assertThat(result.status()).isEqualTo(1);
    assertThat(result.err())
        .contains("dra4j explain: resourceclaim nope not found in namespace gpu-test");
  }
}
