package io.github.dra4j.kubeletplugin;

import io.github.dra4j.core.stability.KubernetesAlpha;

/** Health of one device as the kubelet shows it in pod status. */
@KubernetesAlpha(feature = "ResourceHealthStatus", since = "1.34")
public enum HealthState {
  /** Not known; also what the kubelet assumes when a device is not reported in time. */
  UNKNOWN,
  /** Working. */
  HEALTHY,
  /** Failed or degraded; the kubelet shows it on the pods using the device. */
  UNHEALTHY
}
