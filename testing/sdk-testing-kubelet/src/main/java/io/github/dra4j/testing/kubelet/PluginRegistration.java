package io.github.dra4j.testing.kubelet;

import io.github.dra4j.kubelet.wire.registration.v1.InfoRequest;
import io.github.dra4j.kubelet.wire.registration.v1.PluginInfo;
import io.github.dra4j.kubelet.wire.registration.v1.RegistrationGrpc;
import io.github.dra4j.kubelet.wire.registration.v1.RegistrationStatus;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The kubelet's registration of the plugin behind one registration socket: dial, {@code GetInfo},
 * validation, adding the instance, {@code NotifyRegistrationStatus}; any failure notifies the
 * plugin when it got that far, undoes the registration and retries with exponential backoff (the
 * behaviour of kubelets since 1.36) until it succeeds or the socket goes away.
 *
 * <p>Attempts run one at a time on the kubelet's registration workers, scheduled by its timers
 * (so a plugin that hangs never delays other timers). The state (pending retry, the
 * registered instance, cancellation) is guarded by this object's monitor, which is never held
 * during a gRPC call; see {@link DriverInstances} for the lock order.
 */
final class PluginRegistration {

  private static final Logger LOG = LoggerFactory.getLogger(PluginRegistration.class);

  private final Path socket;
  private final RegistrationContext context;
  private int failures;
  private ScheduledFuture<?> next;
  private PluginInstance registered;
  private boolean cancelled;

  PluginRegistration(Path socket, RegistrationContext context) {
    this.socket = socket;
    this.context = context;
  }

  synchronized void start() {
    next = schedule(Duration.ZERO);
  }

  /**
   * Stops retrying. With {@code deregister}, the registered instance (if any) is removed, matched
   * by driver and endpoint; without, the caller drops all instances itself (kubelet restart).
   *
   * @param deregister whether to deregister the instance
   */
  void cancel(boolean deregister) {
    PluginInstance instance;
    synchronized (this) {
      cancelled = true;
      if (next != null) {
        next.cancel(false);
      }
      instance = registered;
      registered = null;
    }
    if (deregister && instance != null) {
      LOG.info("Deregistering DRA driver {} at {} (socket {} removed)", instance.driver(),
          instance.endpoint(), socket);
      context.instances().deregister(instance.driver(), instance.endpoint());
    }
  }

  private void attempt() {
    synchronized (this) {
      if (cancelled) {
        return;
      }
    }
    ManagedChannel channel = context.channels().open(socket.toString());
    try {
      register(channel);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      UnixChannels.shutdown(channel);
    }
  }

  private void register(ManagedChannel channel) throws InterruptedException {
    KubeletSettings settings = context.settings();
    if (!UnixChannels.awaitReady(channel, settings.dialTimeout())) {
      retryLater("cannot connect to registration socket within " + settings.dialTimeout());
      return;
    }
    PluginInfo info;
    try {
      info = context.calls().unary(channel, RegistrationGrpc.getGetInfoMethod(),
          InfoRequest.getDefaultInstance(), settings.getInfoTimeout(), "", socket.toString());
    } catch (StatusRuntimeException e) {
      retryLater("GetInfo failed: " + e.getStatus());
      return;
    }
    PluginInstance instance;
    try {
      PluginValidation.Accepted accepted = PluginValidation.validate(info, socket,
          settings.healthStreams());
      synchronized (this) {
        if (cancelled) {
          return;
        }
        instance = context.instances().register(accepted, socket);
        registered = instance;
      }
    } catch (PluginValidation.RejectedException rejected) {
      notify(channel, info.getName(), false, rejected.getMessage());
      retryLater(rejected.getMessage());
      return;
    }
    if (!notify(channel, info.getName(), true, "")) {
      synchronized (this) {
        if (registered != instance) {
          return; // cancelled meanwhile; cancel() deregistered it
        }
        registered = null;
      }
      context.instances().deregister(instance.driver(), instance.endpoint());
      retryLater("NotifyRegistrationStatus failed");
      return;
    }
    synchronized (this) {
      failures = 0;
    }
    LOG.info("Registered DRA driver {} at {} over {}", instance.driver(), instance.endpoint(),
        instance.service().advertised());
  }

  private boolean notify(ManagedChannel channel, String driver, boolean ok, String error) {
    RegistrationStatus status = RegistrationStatus.newBuilder().setPluginRegistered(ok)
        .setError(error).build();
    try {
      context.calls().unary(channel, RegistrationGrpc.getNotifyRegistrationStatusMethod(), status,
          context.settings().notifyTimeout(), driver, socket.toString());
      return true;
    } catch (StatusRuntimeException e) {
      synchronized (this) {
        if (ok && !cancelled) {
          LOG.warn("NotifyRegistrationStatus to {} failed: {}", socket, e.getStatus());
        }
      }
      return false;
    }
  }

  private synchronized void retryLater(String reason) {
    if (cancelled) {
      return;
    }
    failures++;
    Duration delay = context.settings().registrationBackoff().delay(failures);
    LOG.warn("Registration of plugin socket {} failed ({}); retrying in {}", socket, reason,
        delay);
    next = schedule(delay);
  }

  private ScheduledFuture<?> schedule(Duration delay) {
    return context.timers().schedule(() -> context.workers().execute(this::attempt),
        delay.toNanos(), TimeUnit.NANOSECONDS);
  }
}
