package io.github.dra4j.kubeletplugin.testsupport;

import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import java.nio.file.Path;

/**
 * A second driver process for the rolling-update tests: starts a plugin in rolling-update mode
 * with a {@link LockProbeDriver}, prints {@code READY} and serves until SIGTERM, when the plugin's
 * shutdown hook removes its sockets.
 *
 * <p>Arguments: API server URL, registry directory, plugin data directory, pod UID, log file.
 */
public final class RollingUpdatePeer {

  private RollingUpdatePeer() {}

  /**
   * Runs the peer.
   *
   * @param args see the class comment
   * @throws Exception if the plugin cannot start
   */
  public static void main(String[] args) throws Exception {
    KubernetesClient client = new KubernetesClientBuilder()
        .withConfig(new ConfigBuilder().withMasterUrl(args[0]).withTrustCerts(true).build())
        .build();
    KubeletPlugin plugin = KubeletPlugin
        .builder(new LockProbeDriver(args[3], Path.of(args[4]), 150))
        .driverName(TestPlugins.DRIVER)
        .kubeClient(client)
        .registrarDirectory(Path.of(args[1]))
        .pluginDataDirectory(Path.of(args[2]))
        .rollingUpdate(args[3])
        .start();
    System.out.println("READY " + plugin.registrationSocket());
    System.out.flush();
    plugin.awaitTermination();
  }
}
