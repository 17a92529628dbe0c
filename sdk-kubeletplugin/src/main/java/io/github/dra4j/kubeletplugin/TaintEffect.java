package io.github.dra4j.kubeletplugin;

import io.github.dra4j.core.stability.KubernetesAlpha;

/**
 * The effect of a device taint in a ResourceSlice ({@code spec.devices[].taints[].effect}): what
 * the scheduler and the eviction controller do with a device that has it.
 */
@KubernetesAlpha(feature = "DRADeviceTaints", since = "1.33", beta = "1.36")
public enum TaintEffect {
  /** New claims do not get the device unless they tolerate the taint; allocated ones keep it. */
  NO_SCHEDULE("NoSchedule"),
  /**
   * As {@link #NO_SCHEDULE}, and pods whose claims have the device allocated without tolerating
   * the taint are evicted.
   */
  NO_EXECUTE("NoExecute"),
  /**
   * Informational: shown in the slice, changes no scheduling. Kubernetes 1.36 (device taints
   * beta) and later; an older API server refuses the slice.
   */
  NONE("None");

  private final String apiValue;

  TaintEffect(String apiValue) {
    this.apiValue = apiValue;
  }

  /**
   * How the API spells the effect.
   *
   * @return {@code NoSchedule}, {@code NoExecute} or {@code None}
   */
  public String apiValue() {
    return apiValue;
  }
}
