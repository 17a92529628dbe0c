package io.github.dra4j.benchmarks.crash;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.lifecycle.ClaimLifecycle;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The crash-test driver as a process of its own, started (and killed) by {@link CrashHarness}:
 * {@code CrashTestDriverProcess <registry dir> <plugin data dir> <cdi dir> <hardware dir>
 * <boot ID file>}, API server from {@code KUBECONFIG}, rolling-update mode when {@code POD_UID} is
 * set, a crash plan from {@code CRASH_PLAN}. Prints {@code started} once it serves.
 */
public final class CrashTestDriverProcess {

  /** The driver name. */
  public static final String DRIVER = "crash.example.com";

  private CrashTestDriverProcess() {}

  /**
   * Runs until killed or SIGTERM.
   *
   * @param args see the class comment
   * @throws Exception if start-up fails
   */
  public static void main(String[] args) throws Exception {
    Path data = Path.of(args[1]);
    Path cdi = Path.of(args[2]);
    CrashTestDriver driver = new CrashTestDriver(new DeviceHolders(Path.of(args[3])), cdi,
        data.resolve(ClaimLifecycle.DEFAULT_CHECKPOINT_FILE),
        CrashPoint.Plan.parse(System.getenv(CrashPoint.ENVIRONMENT)));
    try (KubernetesClient client = new KubernetesClientBuilder().build();
        KubeletPlugin plugin = KubeletPlugin.builder(
            ClaimLifecycle.builder(driver, CrashTestDriver.State.class)
                .cdiKind(CrashTestDriver.KIND)
                .bootIdSource(Path.of(args[4]))
                .goneClaimCheckInterval(Duration.ZERO)
                .build())
            .driverName(DRIVER)
            .kubeClient(client)
            .nodeName("node-1")
            .rollingUpdate(System.getenv("POD_UID"))
            .registrarDirectory(Path.of(args[0]))
            .pluginDataDirectory(data)
            .cdiDirectory(cdi)
            .start()) {
      System.out.println("started " + plugin.draSocket());
      System.out.flush();
      plugin.awaitTermination();
    }
  }
}
