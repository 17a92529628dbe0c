package io.github.dra4j.lifecycle;

import static io.github.dra4j.kubeletplugin.testsupport.TestPlugins.DRIVER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.kubelet.wire.dra.v1.Claim;
import io.github.dra4j.kubeletplugin.testsupport.ClaimFixtures;
import io.github.dra4j.kubeletplugin.testsupport.HostileFiles;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import io.github.dra4j.testing.kubelet.KubeletClient;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The claim lifecycle in a driver process of its own ({@link LifecycleNodeProcess}): killed with
 * SIGKILL in the middle of an unprepare, and started with the chart's JVM options (a 32 MiB heap)
 * next to files far larger than that heap.
 */
class LifecycleProcessTest {

  private static final Duration WAIT = Duration.ofSeconds(60);

  /** The GPU driver chart's values, whose first {@code jvmOptions} are the kubelet plugin's. */
  private static final Path CHART_VALUES = Path
      .of("../examples/gpu-driver/deployments/helm/dra4j-gpu-driver/values.yaml");

  @TempDir
  Path root;
  private InMemoryApiServer server;
  private Path kubeconfig;
  private final KubeletClient kubelet = KubeletClient.create();
  private final List<Process> processes = new ArrayList<>();

  @BeforeEach
  void setUp() throws IOException {
    server = InMemoryApiServer.builder().build().start();
    kubeconfig = server.writeKubeconfig(root.resolve("kubeconfig"));
    Files.createDirectories(root.resolve("registry"));
    Files.createDirectories(data());
    Files.createDirectories(root.resolve("cdi"));
    Files.writeString(root.resolve("boot_id"), "boot-1\n");
  }

  @AfterEach
  void tearDown() throws InterruptedException {
    for (Process process : processes) {
      if (process.isAlive()) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
    kubelet.close();
    server.close();
  }

  private Path data() {
    return root.resolve("plugins").resolve(DRIVER);
  }

  private Path socket() {
    return data().resolve("dra.sock");
  }

  private Path output(int n) {
    return root.resolve("driver-" + n + ".out");
  }

  /** The chart's kubelet plugin JVM options, as its values file has them. */
  static List<String> chartJvmOptions() throws IOException {
    Matcher options = Pattern.compile("(?m)^  jvmOptions: \"([^\"]*)\"$")
        .matcher(Files.readString(CHART_VALUES));
    assertThat(options.find()).as("kubeletPlugin.jvmOptions in %s", CHART_VALUES).isTrue();
    return List.of(options.group(1).trim().split("\\s+"));
  }

  /** Starts a driver process and waits until it serves or failed; returns its first line. */
  private Process start(List<String> jvmOptions, String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    // The chart's options are for the image's newer JDK; this one ignores those it lacks.
    command.add("-XX:+IgnoreUnrecognizedVMOptions");
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"),
        "-Dlogback.configurationFile=" + System.getProperty("logback.configurationFile", ""),
        LifecycleNodeProcess.class.getName(), root.toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().put("KUBECONFIG", kubeconfig.toString());
    builder.redirectErrorStream(true).redirectOutput(output(processes.size()).toFile());
    Process process = builder.start();
    processes.add(process);
    return process;
  }

  private String awaitStart(int n) throws IOException {
    await().atMost(WAIT).until(() -> firstLine(n, "started in ", "start failed: ") != null);
    return firstLine(n, "started in ", "start failed: ");
  }

  private String firstLine(int n, String... prefixes) throws IOException {
    if (!Files.exists(output(n))) {
      return null;
    }
    for (String line : Files.readAllLines(output(n), StandardCharsets.UTF_8)) {
      for (String prefix : prefixes) {
        if (line.startsWith(prefix)) {
          return line;
        }
      }
    }
    return null;
  }

  private ResourceClaim stored(String name, String device) {
    ResourceClaim claim = ClaimFixtures.allocated("default", name, DRIVER);
    claim.getStatus().getAllocation().getDevices().getResults().get(0).setDevice(device);
    return ClaimFixtures.store(server.client(), claim);
  }

  private static Claim ref(ResourceClaim claim) {
    return KubeletClient.claim("default", claim.getMetadata().getName(),
        claim.getMetadata().getUid());
  }

  private Map<String, Set<String>> holders() {
    return new CountingHardware(root.resolve("hardware.json")).holders();
  }

  private Path specOf(ResourceClaim claim) {
    return root.resolve("cdi").resolve("k8s.gpu.example.com-claim_"
        + claim.getMetadata().getUid() + ".json");
  }

  /** The kubelet's prepare, retried while a freshly started plugin's socket comes up. */
  private String prepareError(ResourceClaim claim) {
    String uid = claim.getMetadata().getUid();
    return await().atMost(WAIT).ignoreExceptionsInstanceOf(StatusRuntimeException.class)
        .until(() -> kubelet.prepare(socket(), ref(claim)).getClaimsOrThrow(uid).getError(),
            error -> true);
  }

  @Test
  void anUnprepareKilledBetweenTheUndoAndItsRecordIsDoneAgainBeforeTheClaimIsPreparedAgain()
      throws Exception {
    ResourceClaim claim = stored("killed", "gpu-0");
    String uid = claim.getMetadata().getUid();
    Process first = start(List.of(), "kill-after-release");
    assertThat(awaitStart(0)).startsWith("started in ");
    assertThat(prepareError(claim)).isEmpty();
    assertThat(holders()).containsEntry("gpu-0", Set.of(uid));

    assertThatThrownBy(() -> kubelet.unprepare(socket(), ref(claim)))
        .isInstanceOf(StatusRuntimeException.class);
    assertThat(first.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
    assertThat(first.exitValue()).as("killed by SIGKILL").isEqualTo(137);
    assertThat(holders()).as("the driver's undo ran before the kill").isEmpty();

    start(List.of());
    assertThat(awaitStart(1)).startsWith("started in ");
    assertThat(specOf(claim)).as("the spec of a claim being unprepared is not restored")
        .doesNotExist();

    assertThat(prepareError(claim)).as("the kubelet prepares the claim again").isEmpty();

    assertThat(holders()).as("the prepare did the hardware work again")
        .containsEntry("gpu-0", Set.of(uid));
    assertThat(specOf(claim)).exists();
  }

  @Test
  void fortyMegabyteFilesAtTheCheckpointAndAnOrphanSpecPathDoNotStopAStartInTheChartsHeap()
      throws Exception {
    ResourceClaim claim = stored("served", "gpu-0");
    HostileFiles.sparse(data().resolve("checkpoint.json"), 40L << 20);
    HostileFiles.sparse(root.resolve("cdi")
        .resolve("k8s.gpu.example.com-claim_0b7a3c1e-5d2f-4a8b-9c6d-1e2f3a4b5c6d.json"),
        40L << 20);

    start(chartJvmOptions());
    String started = awaitStart(0);

    System.out.println("32 MiB heap, 40 MB checkpoint and orphaned spec: " + started);
    assertThat(started).startsWith("started in ").contains("41943040 bytes, more than the limit");
    assertThat(prepareError(claim)).as("a claim is served").isEmpty();
    assertThat(holders()).containsEntry("gpu-0", Set.of(claim.getMetadata().getUid()));
  }
}
