package io.github.dra4j.kubeletplugin.internal.registration;

import io.github.dra4j.kubelet.wire.ServiceNames;
import io.github.dra4j.kubelet.wire.registration.v1.InfoRequest;
import io.github.dra4j.kubelet.wire.registration.v1.PluginInfo;
import io.github.dra4j.kubelet.wire.registration.v1.RegistrationGrpc;
import io.github.dra4j.kubelet.wire.registration.v1.RegistrationStatusResponse;
import io.github.dra4j.kubeletplugin.RegistrationStatus;
import io.github.dra4j.kubeletplugin.internal.logging.LogText;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The kubelet's plugin registration service: tells the kubelet who the plugin is
 * and where its DRA socket is, and records the kubelet's verdict.
 *
 * <p>Thread-safe: the status is an atomic reference.
 */
public final class RegistrationService extends RegistrationGrpc.RegistrationImplBase {

  private static final Logger LOG = LoggerFactory.getLogger(RegistrationService.class);

  private final PluginInfo info;
  private final AtomicReference<RegistrationStatus> status = new AtomicReference<>();

  /**
   * Creates the service.
   *
   * @param driverName the DRA driver name
   * @param endpoint absolute path of the DRA service socket
   * @param supportedServices advertised service identifiers, in order of preference
   */
  public RegistrationService(String driverName, String endpoint, List<String> supportedServices) {
    this.info = PluginInfo.newBuilder()
        .setType(ServiceNames.PLUGIN_TYPE)
        .setName(driverName)
        .setEndpoint(endpoint)
        .addAllSupportedVersions(supportedServices)
        .build();
  }

  @Override
  public void getInfo(InfoRequest request, StreamObserver<PluginInfo> observer) {
    observer.onNext(info);
    observer.onCompleted();
  }

  @Override
  public void notifyRegistrationStatus(
      io.github.dra4j.kubelet.wire.registration.v1.RegistrationStatus request,
      StreamObserver<RegistrationStatusResponse> observer) {
    status.set(new RegistrationStatus(request.getPluginRegistered(), request.getError()));
    if (!request.getPluginRegistered()) {
      LOG.error("The kubelet rejected the plugin: {}", LogText.text(request.getError()));
      observer.onError(
          Status.UNKNOWN
              .withDescription("failed registration process: " + request.getError())
              .asException());
      return;
    }
    LOG.info("Registered with the kubelet as DRA driver {}", info.getName());
    observer.onNext(RegistrationStatusResponse.getDefaultInstance());
    observer.onCompleted();
  }

  /**
   * The last status the kubelet reported.
   *
   * @return empty until the kubelet has called
   */
  public Optional<RegistrationStatus> status() {
    return Optional.ofNullable(status.get());
  }
}
