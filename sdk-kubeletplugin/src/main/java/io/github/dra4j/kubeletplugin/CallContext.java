package io.github.dra4j.kubeletplugin;

import io.github.dra4j.kubeletplugin.internal.observability.CallObserver;
import io.grpc.Context;
import io.grpc.Deadline;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import org.slf4j.MDC;

/**
 * What a driver knows about the kubelet call it is serving: the kubelet's deadline and whether the
 * call was cancelled, the node, the plugin data directory, and the logging context (MDC) of the
 * request.
 *
 * <p>The kubelet gives {@code NodePrepareResources} and {@code NodeUnprepareResources} 45 s and
 * cancels the call when it gives up. A driver whose work is long (creating partitions, binding
 * devices) should check {@link #isCancelled()} between steps and stop early, undoing what it did:
 * the kubelet will call again. The call's MDC ({@code requestID}, {@code method}, {@code claim})
 * is set on the calling thread; {@link #wrap(Runnable)} carries it to a thread of the driver's.
 *
 * <p>Immutable apart from the cancellation it observes; safe to share between threads for the
 * duration of the call. Do not keep it after the call returned.
 */
public final class CallContext {

  private final String method;
  private final String nodeName;
  private final Path pluginDataDirectory;
  private final Map<String, String> mdc;
  private final Context grpcContext;
  private final Instant deadline;

  private CallContext(String method, String nodeName, Path pluginDataDirectory,
      Map<String, String> mdc, Context grpcContext, Instant deadline) {
    this.method = method;
    this.nodeName = nodeName;
    this.pluginDataDirectory = pluginDataDirectory;
    this.mdc = mdc;
    this.grpcContext = grpcContext;
    this.deadline = deadline;
  }

  /**
   * The context of the gRPC call running on this thread, as the plugin builds it for the driver.
   *
   * @param method the kubelet's method, e.g. {@code NodePrepareResources}
   * @param nodeName the plugin's node name, empty when not set
   * @param pluginDataDirectory the plugin data directory
   * @return the context, with the current MDC and the gRPC call's deadline and cancellation
   */
  static CallContext ofCurrentCall(String method, String nodeName, Path pluginDataDirectory) {
    Context current = Context.current();
    Deadline grpcDeadline = current.getDeadline();
    Instant deadline = grpcDeadline == null ? null
        : Instant.now().plusNanos(grpcDeadline.timeRemaining(TimeUnit.NANOSECONDS));
    return new CallContext(method, nodeName, pluginDataDirectory, currentMdc(), current, deadline);
  }

  /**
   * A context that belongs to no kubelet call: no deadline, never cancelled, the current MDC. For
   * work the driver starts itself (start-up reconciliation, background clean-up) and for tests
   * that call a driver directly.
   *
   * @param method what the work is, used like the kubelet's method name in logs
   * @param nodeName the node name, empty when not known
   * @param pluginDataDirectory the plugin data directory
   * @return the context
   */
  public static CallContext detached(String method, String nodeName, Path pluginDataDirectory) {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(nodeName, "nodeName");
    Objects.requireNonNull(pluginDataDirectory, "pluginDataDirectory");
    return new CallContext(method, nodeName, pluginDataDirectory, currentMdc(), null, null);
  }

  private static Map<String, String> currentMdc() {
    Map<String, String> map = MDC.getCopyOfContextMap();
    return map == null ? Map.of() : Map.copyOf(map);
  }

  /**
   * The kubelet's method this call serves.
   *
   * @return {@code NodePrepareResources} or {@code NodeUnprepareResources} (whatever the kubelet
   *     spoke, v1 or v1beta1), or the name given to {@link #detached}
   */
  public String method() {
    return method;
  }

  /**
   * The request's ID in the logs ({@code requestID} in the MDC).
   *
   * @return the ID, empty outside a kubelet call
   */
  public String requestId() {
    return mdc.getOrDefault(CallObserver.MDC_REQUEST_ID, "");
  }

  /**
   * The node this plugin runs on.
   *
   * @return the node name given to the plugin, empty when none was set
   */
  public String nodeName() {
    return nodeName;
  }

  /**
   * The plugin data directory ({@code /var/lib/kubelet/plugins/<driver>} by default), where a
   * driver keeps its files.
   *
   * @return the directory
   */
  public Path pluginDataDirectory() {
    return pluginDataDirectory;
  }

  /**
   * When the kubelet stops waiting for the answer.
   *
   * @return the deadline, empty when the call has none
   */
  public Optional<Instant> deadline() {
    return Optional.ofNullable(deadline);
  }

  /**
   * How long until the deadline.
   *
   * @return the time left (zero or negative once passed), empty when the call has no deadline
   */
  public Optional<Duration> timeRemaining() {
    return deadline().map(d -> Duration.between(Instant.now(), d));
  }

  /**
   * Whether the kubelet cancelled the call, its deadline passed, or the plugin is closing.
   *
   * @return true once the answer will no longer be read
   */
  public boolean isCancelled() {
    return grpcContext != null && grpcContext.isCancelled();
  }

  /**
   * Throws if the call was cancelled, for a driver that checks between steps.
   *
   * @throws CancellationException naming the method when {@link #isCancelled()} is true
   */
  public void throwIfCancelled() {
    if (isCancelled()) {
      Throwable cause = grpcContext.cancellationCause();
      CancellationException e = new CancellationException(method + " was cancelled"
          + (cause == null ? "" : ": " + cause.getMessage()));
      e.initCause(cause);
      throw e;
    }
  }

  /**
   * The logging context of the call.
   *
   * @return a copy of the MDC as it was when the call reached the driver
   */
  public Map<String, String> mdc() {
    return mdc;
  }

  /**
   * Makes a task run with this call's MDC, for work the driver hands to a thread of its own.
   *
   * @param task the work
   * @return a task that sets the call's MDC, runs {@code task}, and restores the thread's MDC
   */
  public Runnable wrap(Runnable task) {
    Objects.requireNonNull(task, "task");
    return () -> {
      Map<String, String> previous = MDC.getCopyOfContextMap();
      MDC.setContextMap(mdc);
      try {
        task.run();
      } finally {
        if (previous == null) {
          MDC.clear();
        } else {
          MDC.setContextMap(previous);
        }
      }
    };
  }

  @Override
  public String toString() {
    return method + (requestId().isEmpty() ? "" : " " + requestId())
        + (deadline == null ? "" : " until " + deadline);
  }
}
