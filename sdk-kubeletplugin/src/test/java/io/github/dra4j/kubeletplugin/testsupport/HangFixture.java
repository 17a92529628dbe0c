package io.github.dra4j.kubeletplugin.testsupport;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.kubelet.wire.dra.v1.Claim;
import io.github.dra4j.kubeletplugin.CallContext;
import io.github.dra4j.kubeletplugin.DraDriver;
import io.github.dra4j.kubeletplugin.PrepareResult;
import io.github.dra4j.kubeletplugin.PreparedDevice;
import io.github.dra4j.kubeletplugin.UnprepareResult;
import io.github.dra4j.resourceclaim.ClaimReference;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import io.github.dra4j.testing.kubelet.KubeletClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the tests of an API server that hangs share: the environment a DaemonSet gives a plugin
 * (so the plugin makes its API client as in a cluster, with the Kubernetes client's default
 * timeouts and retries), a driver that knows which claims it prepared, and a count of the
 * handler threads busy with a call.
 */
public final class HangFixture {

  private HangFixture() {}

  /**
   * The DaemonSet's variables for a plugin under a temporary directory, talking to a server.
   *
   * @param root a temporary directory
   * @param server the API server
   * @return the variables; liveness probe and metrics off
   * @throws IOException if the directories or the kubeconfig cannot be written
   */
  public static Map<String, String> environment(Path root, InMemoryApiServer server)
      throws IOException {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("NODE_NAME", "node-1");
    env.put("KUBELET_REGISTRAR_DIRECTORY_PATH",
        Files.createDirectories(root.resolve("registry")).toString());
    env.put("KUBELET_PLUGINS_DIRECTORY_PATH",
        Files.createDirectories(root.resolve("plugins")).toString());
    Files.createDirectories(root.resolve("plugins").resolve(TestPlugins.DRIVER));
    env.put("CDI_ROOT", Files.createDirectories(root.resolve("cdi")).toString());
    env.put("HEALTHCHECK_PORT", "-1");
    env.put("METRICS_PORT", "-1");
    env.put("KUBECONFIG", server.writeKubeconfig(root.resolve("kubeconfig")).toString());
    return env;
  }

  /**
   * Stores an allocated claim of the tests' driver.
   *
   * @param server the API server
   * @param name the claim's name, in namespace {@code default}
   * @return the kubelet's reference to it
   */
  public static Claim storedClaim(InMemoryApiServer server, String name) {
    ResourceClaim stored = ClaimFixtures.store(server.client(),
        ClaimFixtures.allocated("default", name, TestPlugins.DRIVER));
    return KubeletClient.claim("default", name, stored.getMetadata().getUid());
  }

  /**
   * The handler threads running a call now: {@code dra4j-grpc} threads not waiting for work.
   *
   * @return how many
   */
  public static long busyHandlerThreads() {
    return Thread.getAllStackTraces().entrySet().stream()
        .filter(e -> e.getKey().getName().startsWith("dra4j-grpc-"))
        .filter(e -> Arrays.stream(e.getValue())
            .noneMatch(frame -> frame.getMethodName().equals("getTask")))
        .count();
  }

  /**
   * A driver that prepares one device per claim and remembers what it prepared, so that a claim
   * prepared once is prepared again without being read ({@link DraDriver#isPrepared}), as a
   * driver with a checkpoint does.
   */
  public static final class RememberingDriver implements DraDriver {
    private final Map<String, PrepareResult> prepared = new ConcurrentHashMap<>();

    @Override
    public Map<String, PrepareResult> prepareResourceClaims(List<ResourceClaim> claims,
        CallContext context) {
      Map<String, PrepareResult> results = new LinkedHashMap<>();
      for (ResourceClaim claim : claims) {
        String uid = claim.getMetadata().getUid();
        results.put(uid, prepared.computeIfAbsent(uid, u -> PrepareResult.prepared(List.of(
            PreparedDevice.builder("node-1", "gpu-0").request("gpu")
                .cdiDeviceId("example.com/gpu=" + u).build()))));
      }
      return results;
    }

    @Override
    public Map<String, UnprepareResult> unprepareResourceClaims(List<ClaimReference> claims,
        CallContext context) {
      Map<String, UnprepareResult> results = new LinkedHashMap<>();
      for (ClaimReference claim : claims) {
        prepared.remove(claim.uid());
        results.put(claim.uid(), UnprepareResult.ok());
      }
      return results;
    }

    @Override
    public boolean isPrepared(ClaimReference claim) {
      return prepared.containsKey(claim.uid());
    }
  }
}
