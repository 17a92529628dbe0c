package io.github.dra4j.kubeletplugin;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.core.stability.KubernetesAlpha;
import io.github.dra4j.kubeletplugin.internal.logging.ErrorLog;
import io.github.dra4j.resourceclaim.ClaimReference;
import java.util.List;
import java.util.Map;
import org.slf4j.LoggerFactory;

/**
 * What a DRA driver implements: preparing and unpreparing ResourceClaims on this node.
 *
 * <p>The {@link KubeletPlugin} calls these methods when the kubelet asks, after checking the
 * request and fetching each claim from the API server. With serialization on (the default), calls
 * never overlap, not even across the two driver pods of a rolling update; with it off, the driver
 * must be thread-safe.
 *
 * <p><b>Statelessness.</b> The kubelet may send a prepare to one driver instance and the matching
 * unprepare to another (rolling update), and it repeats calls after restarts. A driver must keep
 * no state in memory across calls: load what it needs from disk (the plugin data directory) and
 * save it again inside the call. Both calls must be idempotent; unpreparing a claim that was never
 * prepared is not an error.
 */
public interface DraDriver {

  /**
   * Prepares claims for use by containers on this node.
   *
   * <p>Each claim is a full {@code resource.k8s.io/v1} object with {@code status.allocation} set.
   * A claim may carry allocation results of several drivers; pick the results whose {@code
   * driver} is yours. Return one entry per claim, keyed by claim UID. A claim that fails gets
   * {@link PrepareResult#failed(String)}; the others are unaffected.
   *
   * @param claims the claims to prepare, in the kubelet's order
   * @param context the kubelet's deadline and cancellation, the node, the plugin data directory
   * @return results keyed by claim UID
   * @throws Exception if the whole call failed; the kubelet retries later
   */
  Map<String, PrepareResult> prepareResourceClaims(List<ResourceClaim> claims,
      CallContext context) throws Exception;

  /**
   * Undoes {@link #prepareResourceClaims}. Only namespace, name and UID are given because the
   * claim object may already be deleted.
   *
   * @param claims the claims to unprepare
   * @param context the kubelet's deadline and cancellation, the node, the plugin data directory
   * @return results keyed by claim UID
   * @throws Exception if the whole call failed; the kubelet retries later
   */
  Map<String, UnprepareResult> unprepareResourceClaims(List<ClaimReference> claims,
      CallContext context) throws Exception;

  /**
   * Whether this driver holds the claim as prepared in the current boot and can answer its
   * prepare from its own records, without the claim's allocation. The kubelet prepares every
   * running pod's claims again after it or the plugin restarts; for a claim answered here the
   * plugin skips the lookup (a GET to the API server, a cost every node of a cluster multiplies)
   * and hands {@link #prepareResourceClaims} a claim that holds only namespace, name and UID. A
   * claim stays reserved for its pods while it is prepared, so its allocation cannot have
   * changed meanwhile. The plugin calls the driver once per kubelet call whatever the answer: a
   * driver that finds, under its own lock, that it does not hold the claim after all (another
   * process, such as the other pod of a rolling update, unprepared it since) reads the claim
   * itself with {@link PluginContext#claimLookup()}, or fails it and the kubelet retries. The
   * plugin reads every claim when it writes device metadata, which needs the full object. The
   * claim lifecycle of {@code dra4j-lifecycle} answers from its checkpoint.
   *
   * <p>Called outside the serialized section, possibly concurrently. The default is false: every
   * claim is read.
   *
   * @param claim the claim the kubelet names
   * @return true if a metadata-only claim is enough to prepare it again
   */
  default boolean isPrepared(ClaimReference claim) {
    return false;
  }

  /**
   * Called once by {@link KubeletPluginBuilder#start()} before the plugin serves the kubelet, for
   * a driver that must load or repair its state first. The plugin data directory may not
   * exist yet on a fresh node. A driver that throws fails the start with {@link PluginStartException}; the plugin then serves
   * nothing.
   *
   * <p>The default does nothing.
   *
   * @param plugin the plugin's resolved settings and error reporting
   * @throws Exception if the driver cannot start
   */
  default void start(PluginContext plugin) throws Exception {}

  /**
   * Called once when the plugin closes, after it stopped serving the kubelet, so no prepare or
   * unprepare runs any more: stop the driver's own threads here. Not called if {@link #start}
   * failed. Must not throw.
   *
   * <p>The default does nothing.
   */
  default void stop() {}

  /**
   * Receives errors that happen in the background, outside any kubelet call: a gRPC server that
   * stopped, ResourceSlice publishing that failed. Publishing errors arrive wrapped in {@link
   * RecoverableException}; everything else is fatal by convention, and a driver should shut down
   * (for example by closing the plugin and exiting) so that its pod gets restarted.
   *
   * <p>The default logs the error at ERROR: an expected condition (an API server that cannot
   * be reached or refuses a request, a pool it would refuse, an I/O error) in one line with the
   * messages of its causes, anything else (a bug) with its stack trace. A pool that cannot be
   * published is reported once when it starts failing, not at every retry.
   *
   * @param error what went wrong
   * @param message where it happened
   */
  default void handleError(Throwable error, String message) {
    ErrorLog.error(LoggerFactory.getLogger(DraDriver.class), error, message);
  }

  /**
   * Whether this driver reports device health. When true, the plugin serves and advertises the
   * kubelet's device-health stream, and the driver pushes changes through {@link
   * KubeletPlugin#deviceHealth()}. Alpha in Kubernetes: the kubelet reads the stream only with
   * its feature gate {@code ResourceHealthStatus} on (v1alpha1 from 1.34, v1 from 1.37).
   *
   * @return false by default
   */
  @KubernetesAlpha(feature = "ResourceHealthStatus", since = "1.34")
  default boolean reportsDeviceHealth() {
    return false;
  }

  /**
   * The taints this driver's devices get from their reported health, unless {@link
   * HealthOptions#taints()} says otherwise; see {@link HealthTaints}. Only for a driver
   * that {@link #reportsDeviceHealth() reports device health}.
   *
   * @return the policy, for example {@code HealthTaints.whenUnhealthy(TaintEffect.NO_SCHEDULE)};
   *     null (the default) for no health taints
   */
  @KubernetesAlpha(feature = "DRADeviceTaints", since = "1.33", beta = "1.36")
  default HealthTaints healthTaints() {
    return null;
  }
}
