package io.github.dra4j.testing.kubelet;

import com.google.protobuf.Message;
import io.github.dra4j.kubelet.wire.health.v1.DRAResourceHealthGrpc;
import io.github.dra4j.kubelet.wire.health.v1.NodeWatchResourcesRequest;
import io.github.dra4j.kubelet.wire.health.v1.NodeWatchResourcesResponse;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The kubelet's health stream ({@code NodeWatchResources}) to one plugin instance: feeds every
 * message into the {@link HealthMonitor}, clears the driver's health when the stream ends, and
 * reopens it after the retry period unless the plugin answered UNIMPLEMENTED or the instance is
 * gone.
 *
 * <p>Owned by its {@link PluginInstance}, which closes it. Stream callbacks arrive on gRPC
 * threads; the open call and retry timer are guarded by this object's monitor.
 */
final class HealthStream implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(HealthStream.class);

  private final PluginInstance instance;
  private final HealthMonitor monitor;
  private final CallLog log;
  private final ScheduledExecutorService timers;
  private final Duration retryPeriod;
  private ClientCall<?, ?> call;
  private ScheduledFuture<?> retry;
  private boolean closed;
  private boolean abandoned;

  HealthStream(PluginInstance instance, HealthMonitor monitor, CallLog log,
      ScheduledExecutorService timers, Duration retryPeriod) {
    this.instance = instance;
    this.monitor = monitor;
    this.log = log;
    this.timers = timers;
    this.retryPeriod = retryPeriod;
  }

  void start() {
    if (instance.healthService() == HealthService.V1) {
      open(DRAResourceHealthGrpc.getNodeWatchResourcesMethod(),
          NodeWatchResourcesRequest.getDefaultInstance(), response -> response);
    } else {
      open(io.github.dra4j.kubelet.wire.health.v1alpha1.DRAResourceHealthGrpc
          .getNodeWatchResourcesMethod(),
          io.github.dra4j.kubelet.wire.health.v1alpha1.NodeWatchResourcesRequest
              .getDefaultInstance(),
          response -> WireBytes.reparse(response, NodeWatchResourcesResponse.parser()));
    }
  }

  private <Q extends Message, R extends Message> void open(MethodDescriptor<Q, R> method,
      Q request, Function<R, NodeWatchResourcesResponse> toV1) {
    ClientCall<Q, R> opened;
    synchronized (this) {
      if (closed) {
        return;
      }
      opened = instance.connection().channel().newCall(method, CallOptions.DEFAULT);
      call = opened;
    }
    Instant openedAt = log.now();
    ClientCalls.asyncServerStreamingCall(opened, request, new StreamObserver<R>() {
      @Override
      public void onNext(R response) {
        record(openedAt, method, request, response, Status.OK);
        monitor.update(instance.driver(), toV1.apply(response));
      }

      @Override
      public void onError(Throwable error) {
        ended(openedAt, method, request, Status.fromThrowable(error));
      }

      @Override
      public void onCompleted() {
        ended(openedAt, method, request, Status.OK);
      }
    });
  }

  private void record(Instant openedAt, MethodDescriptor<?, ?> method, Message request,
      Message response, Status status) {
    log.append(openedAt, KubeletMethod.NODE_WATCH_RESOURCES, instance.driver(),
        instance.endpoint(), method.getServiceName(), request, response, status);
  }

  private void ended(Instant openedAt, MethodDescriptor<?, ?> method, Message request,
      Status status) {
    boolean forget;
    synchronized (this) {
      forget = !abandoned;
    }
    if (forget) {
      monitor.clear(instance.driver());
    }
    record(openedAt, method, request, null, status);
    synchronized (this) {
      if (closed) {
        return;
      }
      if (status.getCode() == Status.Code.UNIMPLEMENTED) {
        LOG.info("DRA driver {} at {} does not implement {}; not retrying", instance.driver(),
            instance.endpoint(), method.getServiceName());
        return;
      }
      LOG.debug("Health stream of DRA driver {} at {} ended ({}); retrying in {}",
          instance.driver(), instance.endpoint(), status, retryPeriod);
      retry = timers.schedule(this::start, retryPeriod.toNanos(), TimeUnit.NANOSECONDS);
    }
  }

  /**
   * Ends the stream because the instance was deregistered; as in the kubelet, the end of the
   * stream clears the driver's health.
   */
  @Override
  public void close() {
    stop(false);
  }

  /**
   * Ends the stream because the kubelet forgets everything (restart, shutdown); the late end of
   * this stream must not clear health a new registration reported meanwhile.
   */
  void abandon() {
    stop(true);
  }

  private void stop(boolean abandon) {
    ClientCall<?, ?> open;
    ScheduledFuture<?> pending;
    synchronized (this) {
      closed = true;
      abandoned = abandoned || abandon;
      open = call;
      pending = retry;
    }
    if (pending != null) {
      pending.cancel(false);
    }
    if (open != null) {
      open.cancel("plugin instance deregistered", null);
    }
  }
}
