package io.github.dra4j.kubeletplugin;

import static io.github.dra4j.kubeletplugin.testsupport.TestPlugins.DRIVER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.dra4j.kubeletplugin.testsupport.HostileFiles;
import io.github.dra4j.kubeletplugin.testsupport.RecordingDriver;
import io.github.dra4j.testing.apiserver.ApiVerb;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.ConnectException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code fromEnvironment()}: the DaemonSet's variables, explicit calls winning, bad values. */
class FromEnvironmentTest {

  @TempDir
  Path root;
  private InMemoryApiServer server;
  private final Map<String, String> env = new HashMap<>();
  private final AtomicReference<PluginContext> started = new AtomicReference<>();

  /** Remembers what the plugin resolved, as its driver sees it. */
  private final class ContextDriver extends RecordingDriver {
    ContextDriver() {
      super(DRIVER);
    }

    @Override
    public void start(PluginContext context) {
      started.set(context);
    }
  }

  @BeforeEach
  void setUp() throws Exception {
    server = InMemoryApiServer.builder().build().start();
    Files.createDirectories(root.resolve("registry"));
    Path kubeconfig = root.resolve("kubeconfig");
    Files.writeString(kubeconfig, server.kubeconfig());
    env.put("NODE_NAME", "node-env");
    env.put("KUBELET_REGISTRAR_DIRECTORY_PATH", root.resolve("registry").toString());
    env.put("KUBELET_PLUGINS_DIRECTORY_PATH", root.resolve("plugins").toString());
    env.put("CDI_ROOT", root.resolve("cdi").toString());
    env.put("HEALTHCHECK_PORT", "0");
    env.put("METRICS_PORT", "0");
    env.put("KUBECONFIG", kubeconfig.toString());
    env.put("KUBE_API_QPS", "50");
    env.put("KUBE_API_BURST", "100");
  }

  @AfterEach
  void tearDown() {
    server.close();
  }

  private KubeletPluginBuilder builder() {
    return KubeletPlugin.builder(new ContextDriver()).driverName(DRIVER)
        .shutdown(s -> s.withCloseOnShutdown(false));
  }

  @Test
  void theHealthcheckAddressBindsTheLivenessPortToThatAddressAlone() throws Exception {
    // The pod's IP from the downward API in a DaemonSet; loopback here, and another address of
    // this machine must then not reach the port.
    InetAddress other = NetworkInterface.networkInterfaces()
        .flatMap(NetworkInterface::inetAddresses)
        .filter(a -> a instanceof Inet4Address && !a.isLoopbackAddress())
        .findFirst().orElse(null);
    assumeTrue(other != null, "this machine has no IPv4 address besides loopback");
    Files.createDirectories(root.resolve("plugins").resolve(DRIVER));
    env.put("HEALTHCHECK_ADDRESS", "127.0.0.1");
    try (KubeletPlugin plugin = builder().fromEnvironment(env).start()) {
      int port = plugin.livenessPort().orElseThrow();

      try (Socket probe = new Socket(InetAddress.getLoopbackAddress(), port)) {
        assertThat(probe.isConnected()).isTrue();
      }
      assertThatThrownBy(() -> new Socket(other, port).close())
          .isInstanceOf(ConnectException.class);
    }
  }

  @Test
  void theEnvironmentSetsTheOptionsAndTheApiClient() throws Exception {
    Files.createDirectories(root.resolve("plugins").resolve(DRIVER));
    try (KubeletPlugin plugin = builder().fromEnvironment(env).start()) {
      PluginContext context = started.get();

      assertThat(context.nodeName()).isEqualTo("node-env");
      assertThat(context.pluginDataDirectory()).isEqualTo(root.resolve("plugins").resolve(DRIVER));
      assertThat(context.cdiDirectory()).isEqualTo(root.resolve("cdi"));
      assertThat(plugin.registrationSocket().getParent()).isEqualTo(root.resolve("registry"));
      assertThat(plugin.livenessPort()).isPresent();
      assertThat(plugin.metricsPort()).isPresent();
      // The client made from KUBECONFIG talks to the in-memory API server.
      server.clearRequests();
      context.kubeClient().namespaces().list();
      assertThat(server.countRequests(r -> r.is(ApiVerb.LIST, "namespaces"))).isEqualTo(1);
    }
    // The plugin made that client, so it closed it.
    assertThatThrownBy(() -> started.get().kubeClient().namespaces().list())
        .isInstanceOf(RuntimeException.class);
  }

  @Test
  void explicitCallsWinWhateverTheirOrder() throws Exception {
    Path data = Files.createDirectories(root.resolve("explicit-data"));
    env.put("METRICS_PORT", "-1");
    try (KubeletPlugin plugin = builder()
        .nodeName("node-call") // before fromEnvironment
        .fromEnvironment(env)
        .pluginDataDirectory(data) // after it
        .kubeClient(server.client())
        .start()) {
      assertThat(started.get().nodeName()).isEqualTo("node-call");
      assertThat(started.get().pluginDataDirectory()).isEqualTo(data);
      assertThat(started.get().kubeClient()).isSameAs(server.client());
      assertThat(plugin.metricsPort()).as("METRICS_PORT=-1 is off").isEmpty();
    }
  }

  @Test
  void aMalformedVariableFailsTheStartNamingIt() {
    env.put("HEALTHCHECK_PORT", "eighty");
    env.put("CDI_ROOT", "relative/cdi");

    assertThatThrownBy(() -> builder().fromEnvironment(env).start())
        .isInstanceOf(PluginStartException.class)
        .hasMessage("malformed environment: CDI_ROOT=\"relative/cdi\": want an absolute path; "
            + "HEALTHCHECK_PORT=\"eighty\": want a port from 0 to 65535, or -1 for none");
    assertThat(started.get()).isNull();
  }

  @Test
  void anUnreadableKubeconfigFailsTheStartNamingIt() {
    env.put("KUBECONFIG", root.resolve("missing").toString());

    assertThatThrownBy(() -> builder().fromEnvironment(env).start())
        .isInstanceOf(PluginStartException.class)
        .hasMessageStartingWith("KUBECONFIG=\"" + root.resolve("missing") + "\": cannot read it");
  }

  @Test
  void aKubeconfigThatIsAFifoOrHugeFailsTheStartAtOnceNamingIt() throws Exception {
    Path fifo = root.resolve("fifo");
    HostileFiles.mkfifo(fifo);
    env.put("KUBECONFIG", fifo.toString());

    assertThatThrownBy(() -> assertTimeoutPreemptively(Duration.ofSeconds(30),
        () -> builder().fromEnvironment(env).start()))
        .isInstanceOf(PluginStartException.class)
        .hasMessageStartingWith("KUBECONFIG=\"" + fifo + "\": cannot read it")
        .hasMessageContaining("a FIFO");

    Path huge = root.resolve("huge");
    HostileFiles.sparse(huge, 3L << 30);
    env.put("KUBECONFIG", huge.toString());

    assertThatThrownBy(() -> builder().fromEnvironment(env).start())
        .isInstanceOf(PluginStartException.class)
        .hasMessageStartingWith("KUBECONFIG=\"" + huge + "\": cannot read it")
        .hasMessageContaining("3221225472 bytes, more than the limit of");
  }

  @Test
  void aClientThatCannotBeMadeIsAFatalErrorOnceThePluginServes() throws Exception {
    // A kubeconfig that parses, but whose client certificate and key are none: fabric8 fails
    // only when it makes the client, which happens while the sockets start, so the start itself
    // succeeds.
    String notACertificate = Base64.getEncoder().encodeToString(
        "not a certificate".getBytes(StandardCharsets.UTF_8));
    Path kubeconfig = Files.writeString(root.resolve("bad-key-kubeconfig"), String.join("\n",
        "apiVersion: v1",
        "kind: Config",
        "clusters:",
        "- name: c",
        "  cluster:",
        "    server: https://127.0.0.1:1",
        "    insecure-skip-tls-verify: true",
        "contexts:",
        "- name: c",
        "  context: {cluster: c, user: u}",
        "current-context: c",
        "users:",
        "- name: u",
        "  user:",
        "    client-certificate-data: " + notACertificate,
        "    client-key-data: " + notACertificate,
        ""));
    env.put("KUBECONFIG", kubeconfig.toString());
    Files.createDirectories(root.resolve("plugins").resolve(DRIVER));
    ContextDriver driver = new ContextDriver();

    try (KubeletPlugin plugin = KubeletPlugin.builder(driver).driverName(DRIVER)
        .shutdown(s -> s.withCloseOnShutdown(false)).fromEnvironment(env).start()) {
      assertThat(plugin.registrationSocket()).exists();
      // The default policy closes the plugin on the fatal error.
      assertTimeoutPreemptively(Duration.ofSeconds(30), plugin::awaitTermination);
      assertThat(plugin.failure()).isPresent();
      assertThat(driver.errors()).singleElement().satisfies(error -> {
        assertThat(error.getValue()).isEqualTo("make the API client for https://127.0.0.1:1/");
        assertThat(RecoverableException.isRecoverable(error.getKey())).isFalse();
      });
      assertThatThrownBy(() -> started.get().kubeClient())
          .isInstanceOf(KubernetesClientException.class);
    }
  }
}
