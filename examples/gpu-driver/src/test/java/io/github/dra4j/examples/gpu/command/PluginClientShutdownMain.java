package io.github.dra4j.examples.gpu.command;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.kubeletplugin.CallContext;
import io.github.dra4j.kubeletplugin.DraDriver;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.kubeletplugin.PluginContext;
import io.github.dra4j.kubeletplugin.PrepareResult;
import io.github.dra4j.kubeletplugin.UnprepareResult;
import io.github.dra4j.resourceclaim.ClaimReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.LongPredicate;

/**
 * Run by {@link PluginClientShutdownTest} in a JVM of its own: starts a plugin whose API client is made from
 * the environment, waits for that client's selector thread, closes the plugin and waits for the
 * thread to end; prints the three counts on one line ({@code selectors before=0 running=1
 * closed=0} when all is well).
 */
final class PluginClientShutdownMain {

  private PluginClientShutdownMain() {}

  /**
   * Runs the check.
   *
   * @param args the kubeconfig's path, then a directory for the plugin's sockets and files
   * @throws Exception if the plugin cannot start
   */
  public static void main(String[] args) throws Exception {
    Path root = Path.of(args[1]);
    Files.createDirectories(root.resolve("plg").resolve("gpu.example.com"));
    long before = selectorThreads();
    KubeletPlugin plugin = KubeletPlugin.builder(new NoDevices()).driverName("gpu.example.com")
        .fromEnvironment(Map.of("KUBECONFIG", args[0], "NODE_NAME", "node-1", "POD_UID",
            UUID.randomUUID().toString(), "KUBELET_REGISTRAR_DIRECTORY_PATH", dir(root, "reg"),
            "KUBELET_PLUGINS_DIRECTORY_PATH", dir(root, "plg"), "CDI_ROOT", dir(root, "cdi")))
        .shutdown(s -> s.withCloseOnShutdown(false)).start();
    // the plugin makes its client on a thread of its own once its sockets are up
    long running = await(count -> count > before, 30_000);
    plugin.close();
    long closed = await(count -> count == before, 10_000);
    System.out.println("selectors before=" + before + " running=" + running + " closed=" + closed);
  }

  private static long await(LongPredicate done, long millis) throws InterruptedException {
    long deadline = System.nanoTime() + millis * 1_000_000;
    long count = selectorThreads();
    while (!done.test(count) && System.nanoTime() < deadline) {
      Thread.sleep(50);
      count = selectorThreads();
    }
    return count;
  }

  private static long selectorThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && t.getName().matches("HttpClient-\\d+-SelectorManager"))
        .count();
  }

  private static String dir(Path root, String name) throws Exception {
    return Files.createDirectories(root.resolve(name)).toString();
  }

  /** A driver with nothing to prepare: the check is about the plugin's own client. */
  private static final class NoDevices implements DraDriver {
    @Override
    public void start(PluginContext plugin) {}

    @Override
    public Map<String, PrepareResult> prepareResourceClaims(List<ResourceClaim> claims,
        CallContext context) {
      return Map.of();
    }

    @Override
    public Map<String, UnprepareResult> unprepareResourceClaims(List<ClaimReference> claims,
        CallContext context) {
      return Map.of();
    }
  }
}
