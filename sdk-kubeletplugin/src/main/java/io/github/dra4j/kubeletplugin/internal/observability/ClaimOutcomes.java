package io.github.dra4j.kubeletplugin.internal.observability;

import io.github.dra4j.kubelet.wire.dra.v1.Claim;
import io.github.dra4j.kubelet.wire.dra.v1.Device;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourceResponse;
import io.github.dra4j.kubelet.wire.dra.v1.NodeUnprepareResourceResponse;
import io.github.dra4j.resourceclaim.ClaimReference;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * What an operator sees of each claim a kubelet call answered: one INFO line per claim prepared
 * ({@code Prepared claim}, with the devices the pod gets and the time taken) or unprepared
 * ({@code Unprepared claim}), with the claim ({@code <namespace>/<name>:<uid>}) in the MDC next
 * to the call's request ID and method, and the claim meters counted by outcome and reason. A
 * failed claim is logged where it fails, once; here it is only counted. Thread-safe; one per
 * plugin.
 */
public final class ClaimOutcomes {

  private static final Logger LOG = LoggerFactory.getLogger(ClaimOutcomes.class);

  private final ClaimMeters meters;

  /**
   * Creates the outcomes of a plugin.
   *
   * @param meters where claims are counted and timed
   */
  public ClaimOutcomes(ClaimMeters meters) {
    this.meters = meters;
  }

  /**
   * A prepare call answered: each claim counted, each one prepared logged.
   *
   * @param requested the claims the kubelet sent
   * @param answers the answer per claim UID
   * @param failures why claims failed, by UID; a failed claim not in it counts as {@link
   *     ClaimFailure#DRIVER_ERROR}
   * @param nanos how long the call took
   */
  public void prepared(List<Claim> requested, Map<String, NodePrepareResourceResponse> answers,
      Map<String, ClaimFailure> failures, long nanos) {
    walk(requested, answers, failures, nanos, NodePrepareResourceResponse::getError,
        meters::prepared, (claim, answer) -> {
          List<String> devices = new ArrayList<>();
          Set<String> cdiDevices = new LinkedHashSet<>();
          for (Device device : answer.getDevicesList()) {
            devices.add(device.getPoolName() + "/" + device.getDeviceName());
            cdiDevices.addAll(device.getCdiDeviceIdsList());
          }
          log("Prepared claim", claim, nanos, devices, List.copyOf(cdiDevices));
        });
  }

  /**
   * An unprepare call answered: each claim counted, each one unprepared logged.
   *
   * @param requested the claims the kubelet sent
   * @param answers the answer per claim UID
   * @param failures why claims failed, by UID, as for {@link #prepared}
   * @param nanos how long the call took
   */
  public void unprepared(List<Claim> requested,
      Map<String, NodeUnprepareResourceResponse> answers, Map<String, ClaimFailure> failures,
      long nanos) {
    walk(requested, answers, failures, nanos, NodeUnprepareResourceResponse::getError,
        meters::unprepared, (claim, answer) -> log("Unprepared claim", claim, nanos, null, null));
  }

  /**
   * Counts each claim's answer, failed (by its reason, a driver error unless said) or not, and
   * hands each successful one to {@code logSuccess} when INFO is on.
   */
  private static <A> void walk(List<Claim> requested, Map<String, A> answers,
      Map<String, ClaimFailure> failures, long nanos, Function<A, String> error,
      Counting counting, BiConsumer<ClaimReference, A> logSuccess) {
    Map<String, Claim> byUid = byUid(requested);
    Map<ClaimFailure, Integer> failed = new EnumMap<>(ClaimFailure.class);
    int succeeded = 0;
    for (Map.Entry<String, A> answer : answers.entrySet()) {
      if (!error.apply(answer.getValue()).isEmpty()) {
        failed.merge(failures.getOrDefault(answer.getKey(), ClaimFailure.DRIVER_ERROR), 1,
            Integer::sum);
        continue;
      }
      succeeded++;
      if (LOG.isInfoEnabled()) {
        logSuccess.accept(reference(byUid, answer.getKey()), answer.getValue());
      }
    }
    count(counting, succeeded, failed, nanos);
  }

  /**
   * A prepare call that failed as a whole: all its claims counted as failed for one reason.
   *
   * @param failure why
   * @param claims how many the kubelet sent
   * @param nanos how long the call took
   */
  public void prepareFailed(ClaimFailure failure, int claims, long nanos) {
    meters.prepared(failure, claims, nanos);
  }

  /**
   * An unprepare call that failed as a whole, as {@link #prepareFailed}.
   *
   * @param failure why
   * @param claims how many the kubelet sent
   * @param nanos how long the call took
   */
  public void unprepareFailed(ClaimFailure failure, int claims, long nanos) {
    meters.unprepared(failure, claims, nanos);
  }

  /** {@link ClaimMeters#prepared} or {@link ClaimMeters#unprepared}. */
  private interface Counting {
    void count(ClaimFailure failure, int claims, long nanos);
  }

  private static void count(Counting counting, int succeeded, Map<ClaimFailure, Integer> failed,
      long nanos) {
    if (succeeded > 0) {
      counting.count(null, succeeded, nanos);
    }
    failed.forEach((failure, claims) -> counting.count(failure, claims, nanos));
  }

  private static void log(String message, ClaimReference claim, long nanos, List<String> devices,
      List<String> cdiDevices) {
    // the claim as the SDK's other lines of the call name it; a kubelet-sent string, escaped by
    // the backend like any MDC value
    try (MDC.MDCCloseable ignored = MDC.putCloseable(
        io.github.dra4j.core.logging.MdcKeys.CLAIM, claim.toString())) {
      LoggingEventBuilder line = LOG.atInfo().setMessage(message);
      if (devices != null) {
        line = line.addKeyValue("devices", devices).addKeyValue("cdiDevices", cdiDevices);
      }
      line.addKeyValue("durationMs", Math.round(nanos / 1_000.0) / 1_000.0).log();
    }
  }

  private static Map<String, Claim> byUid(List<Claim> requested) {
    Map<String, Claim> byUid = new HashMap<>(requested.size() * 2);
    for (Claim claim : requested) {
      byUid.putIfAbsent(claim.getUid(), claim);
    }
    return byUid;
  }

  private static ClaimReference reference(Map<String, Claim> byUid, String uid) {
    Claim claim = byUid.get(uid);
    return claim == null ? new ClaimReference("", "", uid)
        : new ClaimReference(claim.getNamespace(), claim.getName(), uid);
  }
}
