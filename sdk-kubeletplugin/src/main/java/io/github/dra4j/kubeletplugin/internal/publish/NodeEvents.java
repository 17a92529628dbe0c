package io.github.dra4j.kubeletplugin.internal.publish;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.github.dra4j.core.thread.DaemonThreads;
import io.github.dra4j.kubeletplugin.internal.logging.LogText;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Posts {@code core/v1} Events about this plugin's Node, where {@code kubectl describe node} and
 * {@code kubectl get events -n default} show them: namespace {@code default} (where Events about
 * a Node live), involved object the Node, source component the driver name and host the node.
 * Posting runs on a thread of its own and never blocks the caller. Rate-limited: at most one
 * Event per interval; what is posted within the interval of the last one waits for its end, and
 * only the newest of those is posted, so the last state always shows and a flapping state does
 * not flood the API server. A failed post is logged (at WARN when the API server refuses it, for
 * example for missing RBAC; otherwise at DEBUG, as the publishing error already says why) and
 * not retried. Owned by one plugin; thread-safe.
 */
public final class NodeEvents implements AutoCloseable {

  /** The namespace of Events about cluster-scoped objects such as Nodes. */
  public static final String NAMESPACE = "default";

  /** An Event's message longer than this is refused by the API server. */
  private static final int MESSAGE_LIMIT = 1024;

  private static final Logger LOG = LoggerFactory.getLogger(NodeEvents.class);

  private final Supplier<KubernetesClient> client;
  private final String component;
  private final String nodeName;
  private final String nodeUid;
  private final Duration interval;
  private final Clock clock;
  private final ScheduledExecutorService thread;
  private Instant lastPosted = Instant.MIN;
  private Event waiting;
  private long sequence;

  /**
   * Creates the poster.
   *
   * @param client the API client, asked for when the first Event is posted
   * @param component the driver name, the Events' source component
   * @param nodeName the Node
   * @param nodeUid the Node's UID, or empty to use its name as the kubelet does (both are what
   *     {@code kubectl describe node} looks for)
   * @param interval the least time between two Events
   * @param clock the Events' time
   */
  public NodeEvents(Supplier<KubernetesClient> client, String component, String nodeName,
      String nodeUid, Duration interval, Clock clock) {
    this.client = client;
    this.component = component;
    this.nodeName = nodeName;
    this.nodeUid = nodeUid == null || nodeUid.isEmpty() ? nodeName : nodeUid;
    this.interval = interval;
    this.clock = clock;
    this.thread = Executors.newSingleThreadScheduledExecutor(
        new DaemonThreads("dra4j-events-" + component));
  }

  /**
   * Posts an Event now, or at the end of the interval of the last one (replacing one waiting).
   *
   * @param warning true for type {@code Warning}, false for {@code Normal}
   * @param reason a CamelCase reason, such as {@code ResourceSlicePublishFailed}
   * @param message what happened, shortened to 1024 characters
   */
  public synchronized void post(boolean warning, String reason, String message) {
    Instant now = clock.instant();
    Event event = event(warning, reason, message, now);
    Instant next = lastPosted.equals(Instant.MIN) ? now : lastPosted.plus(interval);
    if (waiting != null) {
      waiting = event; // the scheduled post sends the newest
      return;
    }
    waiting = event;
    long delay = Math.max(0, Duration.between(now, next).toMillis());
    try {
      // Runs once and nothing waits for it: postWaiting handles its own failures.
      var unused = thread.schedule(this::postWaiting, delay, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException closed) {
      waiting = null;
    }
  }

  private void postWaiting() {
    Event event;
    synchronized (this) {
      event = waiting;
      waiting = null;
      lastPosted = clock.instant();
    }
    if (event == null) {
      return;
    }
    try {
      client.get().v1().events().inNamespace(NAMESPACE).resource(event).create();
      LOG.debug("Posted Event {} about node {}", event.getReason(), nodeName);
    } catch (KubernetesClientException e) {
      if (e.getCode() >= 400) {
        LOG.warn("Cannot post Event {} about node {} (the plugin needs RBAC to create events"
            + " in namespace {}): {}", event.getReason(), nodeName, NAMESPACE,
            LogText.text(e.getMessage()));
      } else {
        LOG.debug("Cannot post Event {} about node {}: {}", event.getReason(), nodeName,
            LogText.text(e.getMessage()));
      }
    } catch (RuntimeException e) {
      LOG.debug("Cannot post Event {} about node {}: {}", event.getReason(), nodeName,
          LogText.text(e.toString()));
    }
  }

  private Event event(boolean warning, String reason, String message, Instant now) {
    String time = now.truncatedTo(ChronoUnit.SECONDS).toString();
    // As client-go names Events: the object's name and the time in nanoseconds, in hex; the
    // sequence keeps two Events of one instant apart.
    long nanos = now.getEpochSecond() * 1_000_000_000L + now.getNano() + sequence++;
    String text = message.length() <= MESSAGE_LIMIT ? message
        : message.substring(0, MESSAGE_LIMIT - 3) + "...";
    return new EventBuilder()
        .withNewMetadata().withName(nodeName + "." + Long.toHexString(nanos))
        .withNamespace(NAMESPACE).endMetadata()
        .withNewInvolvedObject().withApiVersion("v1").withKind("Node").withName(nodeName)
        .withUid(nodeUid).endInvolvedObject()
        .withType(warning ? "Warning" : "Normal").withReason(reason).withMessage(text)
        .withCount(1).withFirstTimestamp(time).withLastTimestamp(time)
        .withNewSource().withComponent(component).withHost(nodeName).endSource()
        .withReportingComponent(component).withReportingInstance(nodeName)
        .build();
  }

  /** Stops posting; an Event waiting for its interval is dropped. */
  @Override
  public void close() {
    thread.shutdownNow();
  }
}
