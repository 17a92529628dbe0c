package io.github.dra4j.kubeletplugin;

import io.github.dra4j.core.option.OptionChecks;
import io.github.dra4j.core.stability.KubernetesAlpha;
import java.time.Duration;

/**
 * Device health, for a driver that reports it ({@link DraDriver#reportsDeviceHealth()}): how
 * often the kubelet hears it again, and whether it taints the published devices. Set with {@link
 * KubeletPluginBuilder#health}.
 *
 * @param refreshInterval how often device health is sent to the kubelet again when nothing
 *     changed, so that devices do not time out to "unknown" (the kubelet's default timeout is 30
 *     s). Default 10 s
 * @param taints makes a device's reported health taint it in the published ResourceSlices: an
 *     unhealthy device gets the taints of the policy, for example {@code
 *     HealthTaints.whenUnhealthy(TaintEffect.NO_SCHEDULE)} for the taint {@code <driver
 *     name>/unhealthy=Unhealthy:NoSchedule}, and loses them when it is healthy again. The plugin
 *     keeps the driver's last {@link KubeletPlugin#publishResources} and publishes it again with
 *     the taints whenever health changes (changes within {@code taintDelay} go out as one
 *     publish); taints the driver set on its devices itself stay. A pool whose slices may get
 *     taints is best built with {@code Pool.Builder.devicesMayBeTainted(true)}, so that tainting a
 *     device rewrites one slice. Null (the default) for the driver's own {@link
 *     DraDriver#healthTaints()} (none unless it says so)
 * @param taintDelay how long health taints wait after a change of health before the devices are
 *     published again, so that a burst of changes is one publish (default 1 s). The kubelet's
 *     health stream does not wait
 */
@KubernetesAlpha(feature = "ResourceHealthStatus", since = "1.34")
public record HealthOptions(Duration refreshInterval, HealthTaints taints, Duration taintDelay) {

  /** The defaults: 10 s, the driver's own taints, 1 s. */
  public static final HealthOptions DEFAULTS = new HealthOptions(Duration.ofSeconds(10), null,
      Duration.ofSeconds(1));

  /**
   * Checks the options.
   *
   * @param refreshInterval how often health is sent again
   * @param taints the taint policy; null for the driver's own
   * @param taintDelay how long taints wait after a change
   * @throws IllegalArgumentException if {@code refreshInterval} is not positive or {@code
   *     taintDelay} negative
   */
  public HealthOptions {
    OptionChecks.positive(refreshInterval, "healthRefreshInterval");
    OptionChecks.nonNegative(taintDelay, "healthTaintDelay");
  }

  /**
   * These options with another refresh interval.
   *
   * @param interval a positive duration
   * @return the new options
   */
  public HealthOptions withRefreshInterval(Duration interval) {
    return new HealthOptions(interval, taints, taintDelay);
  }

  /**
   * These options with another taint policy.
   *
   * @param policy the policy; null for the driver's own
   * @return the new options
   */
  @KubernetesAlpha(feature = "DRADeviceTaints", since = "1.33", beta = "1.36")
  public HealthOptions withTaints(HealthTaints policy) {
    return new HealthOptions(refreshInterval, policy, taintDelay);
  }

  /**
   * These options with another taint delay.
   *
   * @param delay zero or positive
   * @return the new options
   */
  @KubernetesAlpha(feature = "DRADeviceTaints", since = "1.33", beta = "1.36")
  public HealthOptions withTaintDelay(Duration delay) {
    return new HealthOptions(refreshInterval, taints, delay);
  }
}
