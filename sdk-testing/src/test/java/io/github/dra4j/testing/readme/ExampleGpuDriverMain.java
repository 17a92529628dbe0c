package io.github.dra4j.testing.readme;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.github.dra4j.kubeletplugin.FatalErrorPolicy;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import java.net.InetSocketAddress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The README's {@code main}, run as a process by {@link ReadmeMainProcessTest}. */
// README:begin main
public final class ExampleGpuDriverMain {
  private static final Logger LOG = LoggerFactory.getLogger(ExampleGpuDriverMain.class);

  public static void main(String[] args) throws Exception {
    String nodeName = System.getenv("NODE_NAME");            // downward API: spec.nodeName
    try (KubernetesClient client = new KubernetesClientBuilder().build();
        KubeletPlugin plugin = KubeletPlugin.builder(ExampleGpuDriver.lifecycle())
            .driverName(ExampleGpuDriver.NAME)
            .kubeClient(client)
            .nodeName(nodeName)
            .rollingUpdate(System.getenv("POD_UID"))         // seamless upgrades; unset: off
            .livenessProbe(new InetSocketAddress(51515))     // grpc.health.v1 for a liveness probe
            .fatalErrorPolicy(FatalErrorPolicy.EXIT)         // a socket gone: close, exit 1
            .start()) {
      plugin.publishResources(ExampleGpuDriver.devices(nodeName, 2));
      plugin.awaitTermination();                             // until SIGTERM closes the plugin
    }
    LOG.info("{} stopped", ExampleGpuDriver.NAME);           // runs on SIGTERM too
  }
}
// README:end
