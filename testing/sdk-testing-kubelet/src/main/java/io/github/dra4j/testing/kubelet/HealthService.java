package io.github.dra4j.testing.kubelet;

import io.github.dra4j.kubelet.wire.ServiceNames;
import java.util.List;

/**
 * The device-health stream services, in the kubelet's order of preference; advertised
 * identifiers equal the gRPC service names.
 */
public enum HealthService {
  /** {@code v1.DRAResourceHealth} (Kubernetes 1.37+), preferred. */
  V1(ServiceNames.HEALTH_V1),
  /** {@code v1alpha1.DRAResourceHealth} (Kubernetes 1.34 to 1.39). */
  V1ALPHA1(ServiceNames.HEALTH_V1ALPHA1);

  private final String grpcService;

  HealthService(String grpcService) {
    this.grpcService = grpcService;
  }

  /**
   * The gRPC service name, which is also the advertised identifier.
   *
   * @return for example {@code v1.DRAResourceHealth}
   */
  public String grpcService() {
    return grpcService;
  }

  /**
   * The service the kubelet streams health from: v1 if advertised, else v1alpha1, else none.
   *
   * @param advertised the plugin's {@code supported_versions}
   * @return the preferred advertised health service, or null if none is advertised
   */
  static HealthService choose(List<String> advertised) {
    for (HealthService service : values()) {
      if (advertised.contains(service.grpcService)) {
        return service;
      }
    }
    return null;
  }
}
