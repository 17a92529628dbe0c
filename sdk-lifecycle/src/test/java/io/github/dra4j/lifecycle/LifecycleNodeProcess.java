package io.github.dra4j.lifecycle;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A node's driver as a process of its own, for {@link LifecycleProcessTest}: the claim lifecycle
 * with the {@link CountingGpuDriver} under {@code <root>} (registry {@code registry/}, data
 * {@code plugins/gpu.example.com/}, CDI {@code cdi/}, boot ID {@code boot_id}, hardware {@code
 * hardware.json}), API server from {@code KUBECONFIG}. Prints {@code started in <ms> ms, heap
 * peak <bytes>} once it serves, or {@code start failed: <error>}. With the argument {@code
 * kill-after-release}, every unprepare kills the process with SIGKILL right after the driver let
 * the devices go: between the driver's undo and the lifecycle's record of it.
 */
public final class LifecycleNodeProcess {

  private LifecycleNodeProcess() {}

  /**
   * Runs the driver until SIGTERM.
   *
   * @param args the root directory, then optionally {@code kill-after-release}
   * @throws Exception if the plugin fails other than at start
   */
  public static void main(String[] args) throws Exception {
    long begin = System.nanoTime();
    Path root = Path.of(args[0]);
    CountingGpuDriver driver = new CountingGpuDriver(
        new CountingHardware(root.resolve("hardware.json")));
    if (args.length > 1 && args[1].equals("kill-after-release")) {
      driver.afterRelease(LifecycleNodeProcess::killSelf);
    }
    try (KubernetesClient client = new KubernetesClientBuilder().build()) {
      KubeletPlugin plugin;
      try {
        plugin = KubeletPlugin.builder(ClaimLifecycle.builder(driver,
            CountingGpuDriver.State.class)
            .bootIdSource(root.resolve("boot_id")).cdiDirectory(root.resolve("cdi"))
            .goneClaimCheckInterval(Duration.ZERO).build())
            .driverName("gpu.example.com")
            .kubeClient(client)
            .nodeName("node-1")
            .registrarDirectory(root.resolve("registry"))
            .pluginDataDirectory(root.resolve("plugins").resolve("gpu.example.com"))
            .start();
      } catch (RuntimeException | Error e) {
        System.out.println("start failed: " + e);
        System.exit(2);
        return;
      }
      try (plugin) {
        System.out.printf("started in %d ms, heap peak %d, errors %s%n",
            (System.nanoTime() - begin) / 1_000_000, heapPeak(), driver.errors());
        plugin.awaitTermination();
      }
    }
  }

  /** The most the heap held so far: the peaks of its pools. */
  private static long heapPeak() {
    long peak = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        peak += pool.getPeakUsage().getUsed();
      }
    }
    return peak;
  }

  /** SIGKILL to this process, as the OOM killer or a node problem sends it. */
  private static void killSelf() {
    try {
      new ProcessBuilder("kill", "-KILL", String.valueOf(ProcessHandle.current().pid())).start();
      Thread.sleep(60_000);
    } catch (IOException | InterruptedException e) {
      Runtime.getRuntime().halt(137);
    }
    Runtime.getRuntime().halt(137);
  }
}
