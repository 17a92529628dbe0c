package io.github.dra4j.kubeletplugin;

import io.github.dra4j.core.option.OptionChecks;
import java.time.Duration;

/**
 * How the plugin uses the API server beyond what every plugin needs. Set with {@link
 * KubeletPluginBuilder#apiServer}.
 *
 * @param timeout how long the plugin waits for the API server outside a kubelet call: {@link
 *     KubeletPluginBuilder#start()} for the claim cache's first list of ResourceClaims (with the
 *     claim cache on), the first {@link KubeletPlugin#publishResources} for the ResourceSlice
 *     informer's first list (both only after the sockets are up), and a claim status report from
 *     when it is made until it is written, queueing behind earlier reports included. A single
 *     request is bounded by the Kubernetes client's request timeout; what a kubelet call waits for
 *     ends with the call's own deadline instead. Default 60 s
 * @param claimCache whether claims are served from an informer cache instead of one GET per
 *     claim, falling back to a GET when the cached claim is missing, unallocated or has another
 *     UID. Default off: the informer watches all claims in the cluster (RBAC list/watch, memory)
 * @param claimStatus whether the claim device status reporter ({@link KubeletPlugin#claimStatus()})
 *     is on: the driver reports per-device data in {@code status.devices[]} of its claims, and the
 *     plugin removes this driver's entries after each successful unprepare (one GET per
 *     unprepared claim, and a write where there were entries). Needs RBAC to update {@code
 *     resourceclaims/status} (see the README). Default off
 */
public record ApiServerOptions(Duration timeout, boolean claimCache, boolean claimStatus) {

  /** The defaults: 60 s, no claim cache, no claim status. */
  public static final ApiServerOptions DEFAULTS = new ApiServerOptions(Duration.ofSeconds(60),
      false, false);

  /**
   * Checks the options.
   *
   * @param timeout the longest wait for the API server outside a kubelet call
   * @param claimCache whether claims come from an informer cache
   * @param claimStatus whether claim device status is on
   * @throws IllegalArgumentException if {@code timeout} is not positive
   */
  public ApiServerOptions {
    OptionChecks.positive(timeout, "apiServerTimeout");
  }

  /**
   * These options with another timeout.
   *
   * @param wait a positive duration
   * @return the new options
   */
  public ApiServerOptions withTimeout(Duration wait) {
    return new ApiServerOptions(wait, claimCache, claimStatus);
  }

  /**
   * These options with the claim cache on or off.
   *
   * @param on true to cache
   * @return the new options
   */
  public ApiServerOptions withClaimCache(boolean on) {
    return new ApiServerOptions(timeout, on, claimStatus);
  }

  /**
   * These options with claim device status on or off.
   *
   * @param on true to report claim device status
   * @return the new options
   */
  public ApiServerOptions withClaimStatus(boolean on) {
    return new ApiServerOptions(timeout, claimCache, on);
  }
}
