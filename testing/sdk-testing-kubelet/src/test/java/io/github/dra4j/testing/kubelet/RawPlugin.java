package io.github.dra4j.testing.kubelet;

import io.github.dra4j.kubelet.wire.registration.v1.InfoRequest;
import io.github.dra4j.kubelet.wire.registration.v1.PluginInfo;
import io.github.dra4j.kubelet.wire.registration.v1.RegistrationGrpc;
import io.github.dra4j.kubelet.wire.registration.v1.RegistrationStatus;
import io.github.dra4j.kubelet.wire.registration.v1.RegistrationStatusResponse;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A hand-made registration server for plugins the SDK would never produce: any {@link PluginInfo},
 * a GetInfo that never answers, notifications that fail. Records what the kubelet sends.
 * Thread-safe.
 */
final class RawPlugin extends RegistrationGrpc.RegistrationImplBase implements AutoCloseable {

  private final AtomicReference<PluginInfo> info;
  private final AtomicBoolean hangGetInfo = new AtomicBoolean();
  private final AtomicInteger failNotifications = new AtomicInteger();
  private final AtomicInteger getInfoCalls = new AtomicInteger();
  private final List<RegistrationStatus> notifications = new ArrayList<>();
  private final UnixServer server;

  private RawPlugin(Path registrationSocket, PluginInfo info) {
    this.info = new AtomicReference<>(info);
    this.server = new UnixServer(registrationSocket, this);
  }

  /**
   * Serves registration on a socket.
   *
   * @param registrationSocket where
   * @param info what GetInfo answers
   * @return the running server
   */
  static RawPlugin serve(Path registrationSocket, PluginInfo info) {
    return new RawPlugin(registrationSocket, info);
  }

  /** A DRA plugin info with the given name, endpoint and advertised services. */
  static PluginInfo info(String driver, Path endpoint, String... services) {
    return PluginInfo.newBuilder().setType("DRAPlugin").setName(driver)
        .setEndpoint(endpoint == null ? "" : endpoint.toString())
        .addAllSupportedVersions(List.of(services)).build();
  }

  void answer(PluginInfo newInfo) {
    info.set(newInfo);
  }

  void hangGetInfo(boolean on) {
    hangGetInfo.set(on);
  }

  void failNextNotifications(int count) {
    failNotifications.set(count);
  }

  int getInfoCalls() {
    return getInfoCalls.get();
  }

  synchronized List<RegistrationStatus> notifications() {
    return List.copyOf(notifications);
  }

  @Override
  public void getInfo(InfoRequest request, StreamObserver<PluginInfo> observer) {
    getInfoCalls.incrementAndGet();
    if (hangGetInfo.get()) {
      return; // never answers; the kubelet's deadline ends the call
    }
    observer.onNext(info.get());
    observer.onCompleted();
  }

  @Override
  public void notifyRegistrationStatus(
      RegistrationStatus status, StreamObserver<RegistrationStatusResponse> observer) {
    synchronized (this) {
      notifications.add(status);
    }
    if (failNotifications.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      observer.onError(Status.UNAVAILABLE.withDescription("notification refused").asException());
      return;
    }
    observer.onNext(RegistrationStatusResponse.getDefaultInstance());
    observer.onCompleted();
  }

  @Override
  public void close() {
    server.close();
  }
}
