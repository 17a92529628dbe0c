package io.github.dra4j.testing.readme;

import io.github.dra4j.kubeletplugin.FatalErrorPolicy;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The README's {@code main}, run as a process by {@link ReadmeMainProcessTest}. */
// README:begin main
public final class ExampleGpuDriverMain {
  private static final Logger LOG = LoggerFactory.getLogger(ExampleGpuDriverMain.class);

  public static void main(String[] args) throws Exception {
    try (KubeletPlugin plugin = KubeletPlugin.builder(ExampleGpuDriver.lifecycle())
        .driverName(ExampleGpuDriver.NAME)
        .fromEnvironment() // NODE_NAME, POD_UID, KUBECONFIG, METRICS_PORT, ... (README)
        .shutdown(s -> s.withFatalErrorPolicy(FatalErrorPolicy.EXIT)) // a socket gone: exit 1
        .start()) {
      plugin.publishResources(ExampleGpuDriver.devices(System.getenv("NODE_NAME"), 2));
      plugin.awaitTermination(); // until SIGTERM closes the plugin
    }
    LOG.info("{} stopped", ExampleGpuDriver.NAME); // runs on SIGTERM too
  }
}
// README:end
