package io.github.dra4j.testing.kubelet;

import io.github.dra4j.kubelet.wire.ServiceNames;
import java.util.Optional;

/**
 * The DRA node services a kubelet of version 1.34 or later can call, with the identifiers plugins
 * advertise for them in {@code supported_versions}.
 */
public enum DraService {
  /** {@code k8s.io.kubelet.pkg.apis.dra.v1.DRAPlugin}, advertised as {@code v1.DRAPlugin}. */
  V1(ServiceNames.DRA_V1, ServiceNames.DRA_V1_SERVICE),
  /**
   * {@code k8s.io.kubelet.pkg.apis.dra.v1beta1.DRAPlugin}, advertised as {@code v1beta1.DRAPlugin};
   * device share IDs are lost on this version.
   */
  V1BETA1(ServiceNames.DRA_V1BETA1, ServiceNames.DRA_V1BETA1_SERVICE);

  private final String advertised;
  private final String grpcService;

  DraService(String advertised, String grpcService) {
    this.advertised = advertised;
    this.grpcService = grpcService;
  }

  /**
   * The identifier a plugin lists in {@code supported_versions}.
   *
   * @return for example {@code v1.DRAPlugin}
   */
  public String advertised() {
    return advertised;
  }

  /**
   * The fully qualified gRPC service name called on the plugin's endpoint.
   *
   * @return for example {@code k8s.io.kubelet.pkg.apis.dra.v1.DRAPlugin}
   */
  public String grpcService() {
    return grpcService;
  }

  /**
   * The service an advertised identifier stands for.
   *
   * @param advertised an entry of {@code supported_versions}
   * @return the service, or empty if the kubelet does not know the identifier
   */
  public static Optional<DraService> fromAdvertised(String advertised) {
    for (DraService service : values()) {
      if (service.advertised.equals(advertised)) {
        return Optional.of(service);
      }
    }
    return Optional.empty();
  }
}
