package io.github.dra4j.kubeletplugin.testsupport;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every plugin test starts from: the fabric8 mock API server in CRUD mode with a client, a
 * temporary directory for sockets, and a {@link TestKubelet} closed after each test.
 */
@EnableKubernetesMockClient(crud = true)
public abstract class PluginTestBase {

  /** Client of the mock API server, injected per test. */
  protected KubernetesClient client;

  /** Temporary directory for registry, plugin data and CDI directories. */
  @TempDir protected Path root;

  /** Plays the kubelet; closed after each test. */
  protected final TestKubelet kubelet = new TestKubelet();

  @AfterEach
  void closeKubelet() {
    kubelet.close();
  }
}
