package io.github.dra4j.benchmarks.floor;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.kubeletplugin.CallContext;
import io.github.dra4j.kubeletplugin.DraDriver;
import io.github.dra4j.kubeletplugin.FatalErrorPolicy;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.kubeletplugin.PrepareResult;
import io.github.dra4j.kubeletplugin.PreparedDevice;
import io.github.dra4j.kubeletplugin.UnprepareResult;
import io.github.dra4j.resourceclaim.ClaimReference;
import io.github.dra4j.resourceslice.DriverResources;
import io.github.dra4j.resourceslice.Pool;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dra4j side of the floor comparison: a small vendor driver, written from the README, that
 * answers each claim with its device's CDI ID from memory, which is what the Go floor
 * server answers ({@code example.com/gpu=<claim UID>-<device>}). It touches no hardware and keeps
 * no state, so what the comparison measures is the SDK: the kubelet's gRPC, the claim lookup, the
 * serialization lock, call logging and metrics.
 *
 * <p>Run as a process of its own ({@code java -cp <the benchmarks module's class path>
 * io.github.dra4j.benchmarks.floor.FloorPeerDriver}), so that start-up, shutdown, resident memory
 * and CPU can be measured. The plugin takes its settings from the environment ({@link
 * io.github.dra4j.kubeletplugin.KubeletPluginBuilder#fromEnvironment()}: {@code NODE_NAME}, {@code
 * POD_UID} for rolling-update mode, the kubelet directories, {@code KUBECONFIG} or fabric8's
 * in-cluster variables, {@code METRICS_PORT}, {@code HEALTHCHECK_PORT}, ...), plus three of this driver's own:
 *
 * <ul>
 *   <li>{@value #CLAIM_CACHE_VARIABLE}: {@code true} (default) for the opt-in claim cache, {@code
 *       false} for a GET of each claim from the API server;
 *   <li>{@value #SERIALIZE_VARIABLE}: {@code true} (default, the SDK's default) to serialize
 *       calls, {@code false} for concurrent calls;
 *   <li>{@value #PUBLISH_VARIABLE}: {@code true} (default) to publish its one device in a
 *       ResourceSlice after start, as the README's driver does.
 * </ul>
 */
public final class FloorPeerDriver implements DraDriver {

  /**
   * The driver name, which {@link io.github.dra4j.benchmarks.kubeletplugin.BenchmarkClaims}
   * allocates from.
   */
  public static final String NAME = "gpu.example.com";

  /** The CDI kind of the answers: the floor's. */
  public static final String CDI_KIND = "example.com/gpu";

  /** Environment variable: claim cache on or off. */
  public static final String CLAIM_CACHE_VARIABLE = "FLOOR_PEER_CLAIM_CACHE";

  /** Environment variable: serialization on or off. */
  public static final String SERIALIZE_VARIABLE = "FLOOR_PEER_SERIALIZE";

  /** Environment variable: publish the device after start or not. */
  public static final String PUBLISH_VARIABLE = "FLOOR_PEER_PUBLISH";

  /** The line this driver prints on standard output once it serves. */
  public static final String STARTED = "floor peer serving";

  private static final Logger LOG = LoggerFactory.getLogger(FloorPeerDriver.class);

  /** Creates the driver; it has no settings of its own. */
  public FloorPeerDriver() {}

  /**
   * The CDI device ID this driver and the floor answer for a device of a claim.
   *
   * @param claimUid the claim's UID
   * @param device the device name
   * @return {@code example.com/gpu=<claim UID>-<device>}
   */
  public static String cdiDeviceId(String claimUid, String device) {
    return CDI_KIND + "=" + claimUid + "-" + device;
  }

  /**
   * Answers each claim with its devices of this driver and their CDI IDs, from memory.
   *
   * @param claims the claims, each allocated
   * @param context unused
   * @return one prepared result per claim UID
   */
  @Override
  public Map<String, PrepareResult> prepareResourceClaims(List<ResourceClaim> claims,
      CallContext context) {
    Map<String, PrepareResult> results = new HashMap<>();
    for (ResourceClaim claim : claims) {
      String uid = claim.getMetadata().getUid();
      List<PreparedDevice> devices = new ArrayList<>();
      for (DeviceRequestAllocationResult result : claim.getStatus().getAllocation().getDevices()
          .getResults()) {
        if (NAME.equals(result.getDriver())) {
          devices.add(PreparedDevice.builder(result.getPool(), result.getDevice())
              .request(result.getRequest())
              .cdiDeviceId(cdiDeviceId(uid, result.getDevice()))
              .build());
        }
      }
      results.put(uid, PrepareResult.prepared(devices));
    }
    return results;
  }

  /**
   * Nothing to undo: every claim is unprepared.
   *
   * @param claims the claims
   * @param context unused
   * @return success for each claim UID
   */
  @Override
  public Map<String, UnprepareResult> unprepareResourceClaims(List<ClaimReference> claims,
      CallContext context) {
    Map<String, UnprepareResult> results = new HashMap<>();
    claims.forEach(claim -> results.put(claim.uid(), UnprepareResult.ok()));
    return results;
  }

  /**
   * Serves until SIGTERM.
   *
   * @param args unused; the settings come from the environment (see the class comment)
   * @throws Exception if the plugin cannot start
   */
  public static void main(String[] args) throws Exception {
    boolean cache = flag(CLAIM_CACHE_VARIABLE);
    boolean serialize = flag(SERIALIZE_VARIABLE);
    boolean publish = flag(PUBLISH_VARIABLE);
    try (KubeletPlugin plugin = KubeletPlugin.builder(new FloorPeerDriver())
        .driverName(NAME)
        .fromEnvironment()
        .apiServer(a -> a.withClaimCache(cache))
        .serialization(s -> s.withEnabled(serialize))
        .shutdown(s -> s.withFatalErrorPolicy(FatalErrorPolicy.EXIT))
        .start()) {
      if (publish) {
        String node = System.getenv("NODE_NAME");
        plugin.publishResources(DriverResources.of(node, Pool.builder()
            .devices(List.of(new DeviceBuilder().withName("gpu-0").build())).build()));
      }
      LOG.info("{}: claim cache {}, serialize {}, publish {}, DRA socket {}", NAME, cache,
          serialize, publish, plugin.draSocket());
      System.out.println(STARTED + " " + plugin.draSocket());
      System.out.flush();
      plugin.awaitTermination();
    }
    LOG.info("{} stopped", NAME);
  }

  /** A boolean variable of this driver: true unless set to {@code false}. */
  private static boolean flag(String variable) {
    String value = System.getenv(variable);
    if (value == null || value.isBlank()) {
      return true;
    }
    if (!value.equalsIgnoreCase("true") && !value.equalsIgnoreCase("false")) {
      throw new IllegalArgumentException(variable + "=\"" + value + "\": want true or false");
    }
    return Boolean.parseBoolean(value);
  }
}
