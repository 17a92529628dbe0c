package io.github.dra4j.kubeletplugin;

import static io.github.dra4j.kubeletplugin.testsupport.TestPlugins.DRIVER;
import static io.github.dra4j.testing.kubelet.KubeletClient.claim;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.github.dra4j.kubelet.wire.registration.v1.PluginInfo;
import io.github.dra4j.kubeletplugin.testsupport.ClaimFixtures;
import io.github.dra4j.kubeletplugin.testsupport.LockProbeDriver;
import io.github.dra4j.kubeletplugin.testsupport.RecordingDriver;
import io.github.dra4j.kubeletplugin.testsupport.RollingUpdatePeer;
import io.github.dra4j.testing.kubelet.KubeletClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seamless upgrade with two driver processes: each has its own sockets, calls to
 * both never interleave thanks to the shared lock file, and stopping one with SIGTERM removes its
 * sockets and leaves the other serving.
 */
@EnableKubernetesMockClient(crud = true)
class RollingUpdateTest {

  private static final String POD_A = "aaaaaaaa-0000-4000-8000-000000000001";
  private static final String POD_B = "bbbbbbbb-0000-4000-8000-000000000002";

  KubernetesClient client;
  @TempDir
  Path root;

  @Test
  void twoProcessesExcludeEachOtherAndSigtermRemovesOnlyTheStoppedOnesSockets() throws Exception {
    Path registry = Files.createDirectories(root.resolve("registry"));
    Path data = Files.createDirectories(root.resolve("plugins").resolve(DRIVER));
    Path log = root.resolve("calls.log");
    List<String> uids = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      uids.add(ClaimFixtures.store(client, ClaimFixtures.allocated("default", "c" + i, DRIVER))
          .getMetadata().getUid());
    }

    Process peer = startPeer(registry, data, log);
    try (KubeletPlugin a = KubeletPlugin.builder(new LockProbeDriver("A", log, 150))
        .driverName(DRIVER).kubeClient(client).registrarDirectory(registry)
        .pluginDataDirectory(data).rollingUpdate(POD_A)
        .shutdown(s -> s.withCloseOnShutdown(false)).start();
        KubeletClient kubelet = KubeletClient.create()) {
      awaitReady(peer);
      List<Path> sockets = KubeletClient.registrationSockets(registry);
      assertThat(sockets).containsExactlyInAnyOrder(
          registry.resolve(DRIVER + "-" + POD_A + "-reg.sock"),
          registry.resolve(DRIVER + "-" + POD_B + "-reg.sock"));
      // The peer's first answer loads its gRPC classes: on a loaded machine that can pass the
      // kubelet's 1 s deadline, and the kubelet would simply ask again.
      PluginInfo infoB = await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(
          () -> kubelet.getInfo(registry.resolve(DRIVER + "-" + POD_B + "-reg.sock")),
          info -> true);
      assertThat(infoB.getEndpoint()).isEqualTo(data.resolve("dra-" + POD_B + ".sock").toString());
      assertThat(a.draSocket()).isEqualTo(data.resolve("dra-" + POD_A + ".sock"));
      Path endpointB = Path.of(infoB.getEndpoint());

      ExecutorService callers = Executors.newFixedThreadPool(8);
      List<CompletableFuture<?>> calls = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        Path endpoint = i % 2 == 0 ? a.draSocket() : endpointB;
        String uid = uids.get(i);
        String name = "c" + i;
        calls.add(CompletableFuture.runAsync(() -> assertThat(
            kubelet.prepare(endpoint, claim("default", name, uid)).getClaimsOrThrow(uid).getError())
            .isEmpty(), callers));
      }
      CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
      callers.shutdown();

      List<String> lines = Files.readAllLines(log);
      assertThat(lines).hasSize(16);
      for (int i = 0; i < lines.size(); i += 2) {
        String[] begin = lines.get(i).split(" ", -1);
        String[] end = lines.get(i + 1).split(" ", -1);
        assertThat(begin[1]).as("line %d of %s", i, lines).isEqualTo("begin");
        assertThat(end[1]).as("line %d of %s", i + 1, lines).isEqualTo("end");
        assertThat(end[0] + end[2]).as("pair at %d", i).isEqualTo(begin[0] + begin[2]);
      }
      assertThat(lines).filteredOn(l -> l.startsWith("A begin")).hasSize(4);
      assertThat(lines).filteredOn(l -> l.startsWith(POD_B + " begin")).hasSize(4);
      assertThat(data.resolve("serialize.lock")).exists();

      peer.destroy(); // SIGTERM: the peer's shutdown hook closes its plugin
      assertThat(peer.waitFor(30, TimeUnit.SECONDS)).isTrue();

      assertThat(endpointB).doesNotExist();
      assertThat(KubeletClient.registrationSockets(registry))
          .containsExactly(registry.resolve(DRIVER + "-" + POD_A + "-reg.sock"));
      assertThat(kubelet.prepare(a.draSocket(), claim("default", "c0", uids.get(0)))
          .getClaimsOrThrow(uids.get(0)).getError()).isEmpty();
    } finally {
      peer.destroyForcibly();
    }
  }

  @Test
  void aDriverNameTooLongForTheGoHelpersSocketNamesStartsOnHashedSockets() throws Exception {
    // 55 characters: /var/lib/kubelet/plugins/<driver>/dra-<UID>.sock would not fit for Go
    String driver = "accelerators-" + "x".repeat(30) + ".example.com";
    Path base = Files.createTempDirectory(Path.of("/tmp"), "dra");
    try {
      Path registry = Files.createDirectories(base.resolve("r"));
      Path data = Files.createDirectories(base.resolve(driver));
      assertThat(data.resolve("dra-" + POD_A + ".sock").toString().length())
          .as("the full name must not fit here").isGreaterThan(107);
      String uid = ClaimFixtures.store(client, ClaimFixtures.allocated("default", "long",
          driver)).getMetadata().getUid();
      try (KubeletPlugin plugin = KubeletPlugin.builder(new RecordingDriver(driver))
          .driverName(driver).kubeClient(client).nodeName("node-1")
          .registrarDirectory(registry).pluginDataDirectory(data).rollingUpdate(POD_A)
          .shutdown(s -> s.withCloseOnShutdown(false)).start();
          KubeletClient kubelet = KubeletClient.create()) {
        assertThat(plugin.draSocket().getFileName().toString()).matches("dra-.{8}\\.sock");
        assertThat(plugin.draSocket()).exists();
        Path registration = KubeletClient.registrationSockets(registry).get(0);
        assertThat(kubelet.getInfo(registration).getEndpoint())
            .isEqualTo(plugin.draSocket().toString());
        assertThat(kubelet.prepare(plugin.draSocket(), claim("default", "long", uid))
            .getClaimsOrThrow(uid).getError()).isEmpty();
      }
    } finally {
      try (var files = Files.walk(base)) {
        files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
      }
    }
  }

  private Process startPeer(Path registry, Path data, Path log) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    String logback = System.getProperty("logback.configurationFile");
    if (logback != null) {
      command.add("-Dlogback.configurationFile=" + logback);
    }
    command.addAll(List.of("-cp", System.getProperty("java.class.path"),
        RollingUpdatePeer.class.getName(), client.getMasterUrl().toString(),
        registry.toString(), data.toString(), POD_B, log.toString()));
    return new ProcessBuilder(command)
        .redirectOutput(root.resolve("peer.out").toFile())
        .redirectError(root.resolve("peer.err").toFile())
        .start();
  }

  private void awaitReady(Process peer) {
    Path out = root.resolve("peer.out");
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
      assertThat(peer.isAlive())
          .as("peer died; stderr: %s", Files.readString(root.resolve("peer.err"))).isTrue();
      assertThat(Files.exists(out) ? Files.readString(out) : "").contains("READY");
    });
  }
}
