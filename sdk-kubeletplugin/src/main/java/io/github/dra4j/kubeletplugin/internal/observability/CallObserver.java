package io.github.dra4j.kubeletplugin.internal.observability;

import io.github.dra4j.core.metrics.MetricNames;
import io.github.dra4j.kubelet.wire.internal.GoCodeNames;
import io.github.dra4j.kubeletplugin.internal.grpc.CallOffload;
import io.github.dra4j.kubeletplugin.internal.grpc.MessageText;
import io.github.dra4j.kubeletplugin.internal.logging.LogText;
import io.github.dra4j.kubeletplugin.internal.logging.LoggedFailure;
import io.github.dra4j.kubeletplugin.internal.server.Refusals;
import io.grpc.Context;
import io.grpc.ForwardingServerCall.SimpleForwardingServerCall;
import io.grpc.ForwardingServerCallListener.SimpleForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Logs and times every gRPC call a plugin serves, one line when a call starts and one when it ends
 * ({@code handling request}, {@code handling request succeeded}, {@code handling stream}, ...; the
 * texts a Go driver logs, so log searches carry over).
 *
 * <p>Each call and stream gets a request ID; the ID and the full method name are in the SLF4J MDC
 * (keys {@value #MDC_REQUEST_ID} and {@value #MDC_METHOD}) whenever call code runs, so a driver's
 * own log lines carry them. Requests, responses and stream messages are logged at DEBUG when call
 * logging is on; failures of the plugin always at ERROR. What a client did is not the plugin's
 * failure: a call the client cancelled, disconnected from or let pass its deadline is logged at
 * INFO (a stream at DEBUG), and one it half-closed without sending its request at INFO; one a limit
 * of the plugin refused at DEBUG, as the limit counts it and logs it once a minute. Every call is timed in the Micrometer timer
 * {@value MetricNames#GRPC_OPERATIONS} with the kubelet's label names: {@code driver_name}, {@code method_name} (full
 * gRPC path) and {@code grpc_status_code} (grpc-go's spelling). The timer publishes a histogram
 * with the buckets of {@link MetricNames#CALL_DURATION_BUCKETS}. Thread-safe; one instance per plugin.
 */
public final class CallObserver implements ServerInterceptor {

  /** MDC key of the request ID. */
  public static final String MDC_REQUEST_ID = io.github.dra4j.core.logging.MdcKeys.REQUEST_ID;

  /** MDC key of the full gRPC method name. */
  public static final String MDC_METHOD = io.github.dra4j.core.logging.MdcKeys.METHOD;

  private static final Logger LOG = LoggerFactory.getLogger(CallObserver.class);

  /**
   * What a call ended by its client (cancelled, disconnected, past its deadline) is timed with:
   * grpc-java tells the server only that the call was cancelled.
   */
  private static final Status ENDED_BY_CLIENT = Status.CANCELLED
      .withDescription("ended by the client");

  private final String driverName;
  private final MeterRegistry registry;
  private final boolean logCalls;
  private final AtomicLong requestIds = new AtomicLong();
  private final Map<String, AtomicReferenceArray<Timer>> timers = new ConcurrentHashMap<>();
  private final AtomicInteger inFlight = new AtomicInteger();

  /**
   * Creates the interceptor.
   *
   * @param driverName value of the {@code driver_name} label
   * @param registry where timers are registered
   * @param logCalls whether to log requests and responses at DEBUG
   */
  public CallObserver(String driverName, MeterRegistry registry, boolean logCalls) {
    this.driverName = driverName;
    this.registry = registry;
    this.logCalls = logCalls;
    Gauge.builder(MetricNames.GRPC_IN_FLIGHT, inFlight, AtomicInteger::get)
        .description("Unary DRA gRPC calls the plugin is handling")
        .tag(MetricNames.DRIVER_NAME, driverName)
        .register(registry);
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(
      ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
    ObservedCall<Q, R> observed = new ObservedCall<>(call);
    boolean entered = observed.enter();
    try {
      return observed.listen(next.startCall(observed, headers));
    } finally {
      observed.exit(entered);
    }
  }

  /** One call: its context, its timer and its log lines. */
  private final class ObservedCall<Q, R> extends SimpleForwardingServerCall<Q, R> {
    private final String requestId = Long.toString(requestIds.incrementAndGet());
    private final String method;
    private final boolean streaming;
    private final long startNanos = System.nanoTime();
    private final AtomicBoolean finished = new AtomicBoolean();
    private volatile boolean requestReceived;
    private volatile boolean halfClosed;

    ObservedCall(ServerCall<Q, R> call) {
      super(call);
      this.method = call.getMethodDescriptor().getFullMethodName();
      this.streaming = !call.getMethodDescriptor().getType().serverSendsOneMessage();
      if (!streaming) {
        inFlight.incrementAndGet();
      }
    }

    /**
     * Puts the call's request ID and method in the MDC, unless this thread already holds them
     * (a response sent from within a callback of the same call).
     *
     * @return whether they were put, and so must be removed by {@link #exit}
     */
    private boolean enter() {
      // Identity on purpose: the very string of this call, not an equal one of another.
      @SuppressWarnings("ReferenceEquality")
      boolean held = MDC.get(MDC_REQUEST_ID) == requestId;
      if (held) {
        return false;
      }
      MDC.put(MDC_REQUEST_ID, requestId);
      MDC.put(MDC_METHOD, method);
      return true;
    }

    private void exit(boolean entered) {
      if (entered) {
        MDC.remove(MDC_REQUEST_ID);
        MDC.remove(MDC_METHOD);
      }
    }

    /** The status the call was closed with beneath this interceptor, or null. */
    private Status closedBeneath() {
      return CallOffload.closedBeneath(delegate());
    }

    ServerCall.Listener<Q> listen(ServerCall.Listener<Q> listener) {
      return new SimpleForwardingServerCallListener<>(listener) {
        @Override
        public void onMessage(Q message) {
          boolean entered = enter();
          try {
            requestReceived = true;
            if (logCalls && LOG.isDebugEnabled()) {
              LOG.debug(streaming ? "handling stream {}" : "handling request {}",
                  MessageText.of(message));
            }
            super.onMessage(message);
          } finally {
            exit(entered);
          }
        }

        @Override
        public void onHalfClose() {
          boolean entered = enter();
          try {
            halfClosed = true;
            super.onHalfClose();
          } finally {
            exit(entered);
          }
        }

        @Override
        public void onCancel() {
          boolean entered = enter();
          try {
            finish(ENDED_BY_CLIENT);
            super.onCancel();
          } finally {
            exit(entered);
          }
        }

        @Override
        public void onComplete() {
          boolean entered = enter();
          try {
            Status closedBeneath = closedBeneath();
            if (closedBeneath != null) {
              finish(closedBeneath); // refused or failed without this interceptor seeing it
            }
            super.onComplete();
          } finally {
            exit(entered);
          }
        }

        @Override
        public void onReady() {
          boolean entered = enter();
          try {
            super.onReady();
          } finally {
            exit(entered);
          }
        }
      };
    }

    @Override
    public void sendMessage(R message) {
      boolean entered = enter();
      try {
        if (logCalls && LOG.isDebugEnabled()) {
          LOG.debug(streaming ? "sending stream message {}" : "handling request succeeded {}",
              MessageText.of(message));
        }
        super.sendMessage(message);
      } finally {
        exit(entered);
      }
    }

    @Override
    public void close(Status status, Metadata trailers) {
      boolean entered = enter();
      try {
        // An answer to a call its client has already ended (cancelled, gone, past its deadline)
        // goes nowhere: the call counts as ended by the client, whatever the handler answered.
        finish(status.isOk() && Context.current().isCancelled() ? ENDED_BY_CLIENT : status);
        super.close(status, trailers);
      } finally {
        exit(entered);
      }
    }

    private void finish(Status status) {
      if (!finished.compareAndSet(false, true)) {
        return;
      }
      if (!streaming) {
        inFlight.decrementAndGet();
      }
      long nanos = System.nanoTime() - startNanos;
      timer(method, status.getCode()).record(nanos, TimeUnit.NANOSECONDS);
      if (status.isOk()) {
        if (logCalls && streaming) {
          LOG.debug("handling stream succeeded");
        }
      } else if (ENDED_BY_CLIENT.equals(status)) {
        // This very instance: Status keeps Object's equals.
        if (streaming) {
          LOG.debug("stream ended by the client");
        } else {
          LOG.info("handling request ended before its answer: the client cancelled it,"
              + " disconnected or let its deadline pass, or a limit refused its request");
        }
      } else if (Refusals.isRefusal(status.getCause())) {
        // A limit of the plugin's refused it, which counted and logged it (once a minute).
        LOG.debug("{} refused by a limit: {} {}", streaming ? "stream" : "request",
            status.getCode(), status.getDescription());
      } else if (halfClosed && !requestReceived) {
        LOG.info("{} refused: the client half-closed the call without sending a request ({} {})",
            streaming ? "stream" : "request", status.getCode(), status.getDescription());
      } else if (LoggedFailure.isLogged(status.getCause())) {
        // Logged at ERROR, with the claims and the stack trace, where it happened.
        LOG.debug("{} failed: {} {}", streaming ? "handling stream" : "handling request",
            status.getCode(), LogText.text(status.getDescription()));
      } else {
        LOG.error("{} failed: {} {}", streaming ? "handling stream" : "handling request",
            status.getCode(), LogText.text(status.getDescription()), status.getCause());
      }
    }
  }

  /**
   * The call timer of a method and outcome, registered on first use and reused after: one map
   * lookup by the method's name (a string whose hash is cached), then an array slot by the code's
   * number (0 to 16, one per code).
   */
  private Timer timer(String method, Status.Code code) {
    AtomicReferenceArray<Timer> byCode = timers.get(method);
    if (byCode == null) {
      byCode = timers.computeIfAbsent(method,
          key -> new AtomicReferenceArray<>(Status.Code.values().length));
    }
    Timer timer = byCode.get(code.value());
    if (timer == null) {
      // Registering twice is harmless: Micrometer returns the meter it already holds.
      timer = Timer.builder(MetricNames.GRPC_OPERATIONS)
          .description("Duration of DRA gRPC calls served by the plugin")
          .tag(MetricNames.DRIVER_NAME, driverName)
          .tag(MetricNames.METHOD_NAME, "/" + method)
          .tag(MetricNames.GRPC_STATUS_CODE, GoCodeNames.of(code))
          .serviceLevelObjectives(MetricNames.CALL_DURATION_BUCKETS.toArray(Duration[]::new))
          .register(registry);
      byCode.set(code.value(), timer);
    }
    return timer;
  }
}
