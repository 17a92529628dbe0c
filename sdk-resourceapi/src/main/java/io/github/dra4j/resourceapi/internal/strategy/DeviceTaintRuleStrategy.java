package io.github.dra4j.resourceapi.internal.strategy;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRuleStatus;
import io.github.dra4j.resourceapi.FeatureGates;
import io.github.dra4j.resourceapi.internal.defaults.ResourceDefaults;
import io.github.dra4j.resourceapi.internal.field.Json;
import io.github.dra4j.resourceapi.internal.field.SemanticEquality;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * {@code pkg/registry/resource/devicetaintrule/strategy.go} (Kubernetes 1.36, served as {@code
 * v1alpha3} and {@code v1beta2}; {@code v1} only from 1.37): main and status strategy.
 * Cluster-scoped. Objects are changed in place. No field is dropped behind a gate.
 *
 * <p>Server-set times: {@code spec.taint.timeAdded} is defaulted to "now" when missing on any
 * write ({@link ResourceDefaults#deviceTaintRule}); on an update that changes the effect and keeps
 * the stored {@code timeAdded} (or also omits it), it is set to "now" again, so it tracks when
 * the effect was set.
 *
 * <p>Validation: create {@code ValidateDeviceTaintRule}; update {@code
 * ValidateDeviceTaintRuleUpdate}; status update {@code ValidateDeviceTaintRuleStatusUpdate}.
 */
public final class DeviceTaintRuleStrategy {

  private DeviceTaintRuleStrategy() {}

  /**
   * Prepares a new rule: the status cleared, generation 1.
   *
   * @param rule the rule, changed in place
   * @param gates the server's gates (no gate changes this strategy)
   */
  public static void prepareForCreate(DeviceTaintRule rule, FeatureGates gates) {
    rule.setStatus(new DeviceTaintRuleStatus());
    MetaUpdates.firstGeneration(rule);
  }

  /**
   * Prepares an update: the status is the stored one; if the effect changed while {@code
   * timeAdded} equals the stored one, {@code timeAdded} becomes the current time (whole seconds);
   * then the generation is incremented if the spec changed.
   *
   * @param rule the new rule, changed in place
   * @param old the stored rule
   * @param gates the server's gates (no gate changes this strategy)
   * @param clock the server's clock
   */
  public static void prepareForUpdate(DeviceTaintRule rule, DeviceTaintRule old,
      FeatureGates gates, Supplier<Instant> clock) {
    rule.setStatus(Json.copy(old.getStatus()));
    DeviceTaint taint = rule.getSpec() == null ? null : rule.getSpec().getTaint();
    DeviceTaint oldTaint = old.getSpec() == null ? null : old.getSpec().getTaint();
    if (taint != null && oldTaint != null
        && !Objects.equals(taint.getEffect(), oldTaint.getEffect())
        && sameTime(taint.getTimeAdded(), oldTaint.getTimeAdded())) {
      taint.setTimeAdded(ResourceDefaults.formatTime(clock.get()));
    }
    MetaUpdates.nextGeneration(rule, old, !SemanticEquality.equal(rule.getSpec(), old.getSpec()));
  }

  /**
   * Prepares an update of {@code /status}: the spec and the metadata (except managed fields) are
   * the stored ones.
   *
   * @param rule the new rule, changed in place
   * @param old the stored rule
   * @param gates the server's gates (no gate changes this strategy)
   */
  public static void prepareForStatusUpdate(DeviceTaintRule rule, DeviceTaintRule old,
      FeatureGates gates) {
    rule.setSpec(Json.copy(old.getSpec()));
    MetaUpdates.resetForStatus(rule, old);
  }

  /**
   * Returns the warnings of a create: none.
   *
   * @param rule the rule
   * @return an empty list
   */
  public static List<String> warningsOnCreate(DeviceTaintRule rule) {
    return List.of();
  }

  /**
   * Returns the warnings of an update or status update: none.
   *
   * @param rule the new rule
   * @param old the stored rule
   * @return an empty list
   */
  public static List<String> warningsOnUpdate(DeviceTaintRule rule, DeviceTaintRule old) {
    return List.of();
  }

  /** {@code metav1.Time.Equal}: both unset, or the same instant. */
  private static boolean sameTime(String a, String b) {
    if (a == null || b == null) {
      return a == null && b == null;
    }
    try {
      return OffsetDateTime.parse(a).toInstant().equals(OffsetDateTime.parse(b).toInstant());
    } catch (RuntimeException e) {
      return a.equals(b);
    }
  }
}
