package io.github.dra4j.core.metrics;

import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

/**
 * The one naming scheme of every meter dra4j registers in a Micrometer registry.
 *
 * <ul>
 *   <li>Names are {@code dra4j.<component>.<what>} in Micrometer's dotted form; a Prometheus
 *       registry shows them as {@code dra4j_<component>_<what>} with the unit and kind suffixes
 *       it adds ({@code _seconds} for timers, {@code _total} for counters).
 *   <li>Tag keys are snake_case, as Kubernetes' own metrics spell labels; every meter carries
 *       {@value #DRIVER_NAME}.
 *   <li>Outcomes are the tag {@value #RESULT} with {@code success} or {@code error}, except where
 *       a meter mirrors a Kubernetes metric's labels ({@value #GRPC_OPERATIONS}).
 * </ul>
 *
 * <p>The README lists every meter with its tags; a test keeps the two in step.
 */
public final class MetricNames {

  /** Tag: the DRA driver name, on every meter. */
  public static final String DRIVER_NAME = "driver_name";

  /** Tag: {@code success} or {@code error}. */
  public static final String RESULT = "result";

  /**
   * Timer of every gRPC call a kubelet plugin serves, with the labels the kubelet uses for its own
   * {@code dra_grpc_operations_duration_seconds}: {@value #DRIVER_NAME}, {@value #METHOD_NAME}
   * (full gRPC path) and {@value #GRPC_STATUS_CODE} (grpc-go's spelling: {@code OK}, {@code
   * InvalidArgument}, ...).
   */
  public static final String GRPC_OPERATIONS = "dra4j.grpc.operations.duration";

  /** Tag of {@link #GRPC_OPERATIONS}: the full gRPC method path, e.g. {@code /pkg.Service/Method}. */
  public static final String METHOD_NAME = "method_name";

  /** Tag of {@link #GRPC_OPERATIONS}: the status code as grpc-go spells it. */
  public static final String GRPC_STATUS_CODE = "grpc_status_code";

  /**
   * Gauge of the kubelet's unary calls a plugin is handling right now (prepare, unprepare,
   * registration); the health stream, open for as long as the kubelet watches, is not counted.
   */
  public static final String GRPC_IN_FLIGHT = "dra4j.grpc.calls.in.flight";

  /**
   * Counter of claims the kubelet asked a plugin to prepare, tags {@value #RESULT} and {@value
   * #REASON} ({@code none}, or why the claim failed, from a fixed set): one per claim, where the
   * gRPC timer counts calls and says OK for a call whose claims failed.
   */
  public static final String CLAIMS_PREPARED = "dra4j.plugin.claims.prepared";

  /** Counter of claims the kubelet asked a plugin to unprepare, tags {@value #RESULT}, {@value
   * #REASON}. */
  public static final String CLAIMS_UNPREPARED = "dra4j.plugin.claims.unprepared";

  /**
   * Timer of each claim the kubelet asked a plugin to prepare, tag {@value #RESULT}: how long the
   * kubelet waited for the claim's answer. A driver answers a call's claims together, so every
   * claim of one call records the call's duration, which is the time its pod waited.
   */
  public static final String CLAIM_PREPARE_DURATION = "dra4j.plugin.claims.prepare.duration";

  /** Timer of each claim the kubelet asked a plugin to unprepare, tag {@value #RESULT}. */
  public static final String CLAIM_UNPREPARE_DURATION = "dra4j.plugin.claims.unprepare.duration";

  /**
   * Counter of background errors a plugin reported to its driver's {@code handleError}, tag
   * {@value #KIND}.
   */
  public static final String PLUGIN_ERRORS = "dra4j.plugin.errors";

  /**
   * Tag of {@link #PLUGIN_ERRORS}: {@code recoverable} (the plugin goes on: a status write, a
   * slice sync, a claim file) or {@code fatal} (a socket lost: the fatal-error policy applies).
   */
  public static final String KIND = "kind";

  /**
   * Gauge of the connections a kubelet plugin's gRPC server holds open, tag {@value #SERVER}: at
   * most that server's {@code maxConnections}.
   */
  public static final String PLUGIN_CONNECTIONS = "dra4j.plugin.connections";

  /**
   * Counter of what a kubelet plugin's gRPC servers refused to hold, tags {@value #SERVER} and
   * {@value #REASON}: connections over the limit or idle before their handshake, requests that
   * would take the partly received ones over their limit, device health streams over their limit
   * or dropped for not reading.
   */
  public static final String PLUGIN_REFUSALS = "dra4j.plugin.refusals";

  /**
   * Tag of {@link #PLUGIN_CONNECTIONS} and {@link #PLUGIN_REFUSALS}: {@code dra} (the DRA
   * socket), {@code registration} (the registration socket) or {@code liveness} (the liveness
   * probe's TCP port).
   */
  public static final String SERVER = "server";

  /**
   * Tag of {@link #PLUGIN_REFUSALS}: {@code connections} (over {@code maxConnections}), {@code
   * handshake} (no HTTP/2 handshake in time), {@code pending_requests} (over {@code
   * maxPendingRequestBytes}), {@code health_streams} (too many device health streams) or {@code
   * slow_reader} (a health stream that read nothing for too long, dropped); of {@link
   * #CLAIMS_PREPARED} and {@link #CLAIMS_UNPREPARED}: why a claim failed, or {@code none}.
   */
  public static final String REASON = "reason";

  /**
   * Gauge of each device's health as the driver last reported it, tags {@value #POOL}, {@value
   * #DEVICE} and {@value #STATE}: one series per device and state, 1 for the device's current
   * state and 0 for the others (a state set). Only devices the driver reports; a device it stops
   * reporting loses its series.
   */
  public static final String DEVICE_HEALTH = "dra4j.plugin.device.health";

  /** Tag of {@link #DEVICE_HEALTH}: the device's name in its pool. */
  public static final String DEVICE = "device";

  /** Tag of {@link #DEVICE_HEALTH}: {@code healthy}, {@code unhealthy} or {@code unknown}. */
  public static final String STATE = "state";

  /** Counter of ResourceSlice writes the API server accepted, tag {@value #OPERATION}. */
  public static final String SLICE_WRITES = "dra4j.resourceslice.writes";

  /** Tag of {@link #SLICE_WRITES}: {@code create}, {@code update} or {@code delete}. */
  public static final String OPERATION = "operation";

  /** Timer of ResourceSlice pool syncs, tag {@value #RESULT}. */
  public static final String SLICE_SYNCS = "dra4j.resourceslice.sync.duration";

  /**
   * Gauge of the devices a driver's pool has in the API server's ResourceSlices, tag {@value
   * #POOL}: after a successful sync the pool's desired devices, while syncs fail what is still
   * published (0 for a pool never published). One series per pool the driver publishes.
   */
  public static final String SLICE_PUBLISHED_DEVICES = "dra4j.resourceslice.published.devices";

  /** Gauge of the ResourceSlices a driver's pool has in the API server, tag {@value #POOL}. */
  public static final String SLICE_PUBLISHED_SLICES = "dra4j.resourceslice.published.slices";

  /**
   * Gauge of whether a pool's last sync failed (1) or succeeded (0), tag {@value #POOL}: an alert
   * on it finds a node whose devices the scheduler does not see.
   */
  public static final String SLICE_PUBLISH_FAILING = "dra4j.resourceslice.publish.failing";

  /** Tag of the ResourceSlice gauges: the pool's name. */
  public static final String POOL = "pool";

  /**
   * Counter of checkpoint writes of the claim lifecycle (each is a file and a directory fsync),
   * so an operator can see the fsync load a driver puts on the node's disk.
   */
  public static final String CHECKPOINT_WRITES = "dra4j.lifecycle.checkpoint.writes";

  /**
   * Counter of claim checkpoints found unreadable and kept aside: anything but zero asks for a
   * look at the node's disk.
   */
  public static final String CHECKPOINT_CORRUPTIONS = "dra4j.lifecycle.checkpoint.corruptions";

  /**
   * Gauge of the claims the claim lifecycle holds prepared on the node, from the checkpoint this
   * process last read or wrote.
   */
  public static final String PREPARED_CLAIMS = "dra4j.lifecycle.prepared.claims";

  /** Gauge of the devices of the claims in {@link #PREPARED_CLAIMS}. */
  public static final String PREPARED_DEVICES = "dra4j.lifecycle.prepared.devices";

  /**
   * Timer of the admission requests a device configuration webhook answered, tags {@value
   * #RESOURCE} and {@value #DECISION}; its count is the number of reviews.
   */
  public static final String WEBHOOK_REVIEWS = "dra4j.webhook.reviews.duration";

  /**
   * Tag of {@link #WEBHOOK_REVIEWS}: {@code allowed}, {@code denied} (a configuration is invalid)
   * or {@code invalid} (not a review the webhook answers: a wrong content type, a body that is no
   * AdmissionReview or is too large, a timeout).
   */
  public static final String DECISION = "decision";

  /**
   * Tag of {@link #WEBHOOK_REVIEWS}: the reviewed object's resource, {@code resourceclaims} or
   * {@code resourceclaimtemplates}; {@code other} for any other resource (allowed unchecked), and
   * {@code unknown} when the request was no review to read it from. Never what a client wrote.
   */
  public static final String RESOURCE = "resource";

  /** Counter of the webhook's certificate reloads, tag {@value #RESULT}. */
  public static final String WEBHOOK_CERTIFICATE_RELOADS = "dra4j.webhook.certificate.reloads";

  /**
   * The histogram buckets of the call timers ({@value #GRPC_OPERATIONS}, {@value
   * #CLAIM_PREPARE_DURATION}, {@value #CLAIM_UNPREPARE_DURATION}, {@value #WEBHOOK_REVIEWS}):
   * 0.5 ms to 45 s, the kubelet's deadline for a prepare call. A fixed, short list keeps a node's
   * page small (16 buckets a series where Micrometer's percentile histogram has about 70) while
   * telling a fast SDK call from a slow driver and from a call near its deadline.
   */
  public static final List<Duration> CALL_DURATION_BUCKETS = Stream.of(
      "PT0.0005S", "PT0.001S", "PT0.0025S", "PT0.005S", "PT0.01S", "PT0.025S", "PT0.05S",
      "PT0.1S", "PT0.25S", "PT0.5S", "PT1S", "PT2.5S", "PT5S", "PT10S", "PT30S", "PT45S")
      .map(Duration::parse).toList();

  /** Every meter name above, in the README's order. */
  public static final List<String> ALL = List.of(GRPC_OPERATIONS, GRPC_IN_FLIGHT, CLAIMS_PREPARED,
      CLAIMS_UNPREPARED, CLAIM_PREPARE_DURATION, CLAIM_UNPREPARE_DURATION, PLUGIN_ERRORS,
      PLUGIN_CONNECTIONS, PLUGIN_REFUSALS, DEVICE_HEALTH, SLICE_WRITES, SLICE_SYNCS,
      SLICE_PUBLISHED_DEVICES,
      SLICE_PUBLISHED_SLICES, SLICE_PUBLISH_FAILING, CHECKPOINT_WRITES,
      CHECKPOINT_CORRUPTIONS, PREPARED_CLAIMS, PREPARED_DEVICES, WEBHOOK_REVIEWS,
      WEBHOOK_CERTIFICATE_RELOADS);

  private MetricNames() {}
}
