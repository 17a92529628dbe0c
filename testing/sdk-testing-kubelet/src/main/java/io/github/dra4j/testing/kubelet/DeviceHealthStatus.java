package io.github.dra4j.testing.kubelet;

/**
 * The health the kubelet shows for a device, as in a pod's {@code status.allocatedResourcesStatus}.
 */
public enum DeviceHealthStatus {
  /** Not reported, reported as unknown, or not reported again within its timeout. */
  UNKNOWN,
  /** Reported healthy. */
  HEALTHY,
  /** Reported unhealthy. */
  UNHEALTHY
}
