package io.github.dra4j.kubeletplugin.process;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.github.dra4j.kubeletplugin.FatalErrorPolicy;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.kubeletplugin.testsupport.RecordingDriver;
import java.nio.file.Path;

/**
 * A driver's {@code main} as the README writes it, run as its own process by {@link
 * ProcessLifecycleTest}: {@code DriverProcess <registry dir> <plugin data dir> <policy>}, API
 * server from {@code KUBECONFIG}. It prints what it reaches, so the test sees whether the code
 * after {@code awaitTermination()} ran.
 */
public final class DriverProcess {

  private DriverProcess() {}

  /**
   * Runs the driver until SIGTERM or a fatal error.
   *
   * @param args registry directory, plugin data directory, fatal error policy
   * @throws Exception if start-up fails
   */
  public static void main(String[] args) throws Exception {
    try (KubernetesClient client = new KubernetesClientBuilder().build();
        KubeletPlugin plugin = KubeletPlugin.builder(new RecordingDriver("gpu.example.com"))
            .driverName("gpu.example.com")
            .kubeClient(client)
            .nodeName(System.getenv("NODE_NAME"))
            .rollingUpdate(System.getenv("POD_UID"))
            .registrarDirectory(Path.of(args[0]))
            .pluginDataDirectory(Path.of(args[1]))
            .shutdown(s -> s.withFatalErrorPolicy(FatalErrorPolicy.valueOf(args[2])))
            .sockets(s -> s.withCheckInterval(java.time.Duration.ofMillis(100)))
            .start()) {
      System.out.println("started");
      plugin.awaitTermination();
      Thread.sleep(300); // cleanup that takes a while
      System.out.println("cleanup done, failure: "
          + plugin.failure().map(Throwable::getMessage).orElse("none"));
    }
    System.out.println("client closed");
  }
}
