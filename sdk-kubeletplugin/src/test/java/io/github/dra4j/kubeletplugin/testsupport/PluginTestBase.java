package io.github.dra4j.kubeletplugin.testsupport;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.github.dra4j.testing.kubelet.KubeletClient;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every plugin test starts from: the fabric8 mock API server in CRUD mode with a client, a
 * temporary directory for sockets, and a {@link KubeletClient} playing the kubelet, closed after
 * each test.
 */
@EnableKubernetesMockClient(crud = true)
public abstract class PluginTestBase {

  /** Client of the mock API server, injected per test. */
  protected KubernetesClient client;

  /** Temporary directory for registry, plugin data and CDI directories. */
  @TempDir
  protected Path root;

  /** Plays the kubelet; closed after each test. */
  protected final KubeletClient kubelet = KubeletClient.create();

  @AfterEach
  void closeKubelet() {
    kubelet.close();
  }
}
