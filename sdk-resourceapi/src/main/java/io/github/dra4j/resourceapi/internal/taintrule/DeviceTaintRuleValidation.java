package io.github.dra4j.resourceapi.internal.taintrule;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRuleSpec;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintSelector;
import io.github.dra4j.resourceapi.FeatureGates;
import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.internal.device.DeviceFieldRules;
import io.github.dra4j.resourceapi.ResourceLimits;
import io.github.dra4j.resourceapi.internal.field.Errors;
import io.github.dra4j.resourceapi.internal.field.FieldPath;
import io.github.dra4j.resourceapi.internal.meta.CoreRules;
import io.github.dra4j.resourceapi.internal.meta.ObjectMetaRules;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * kube-apiserver's validation of a DeviceTaintRule as Kubernetes 1.36 does it
 * (ValidateDeviceTaintRule, ValidateDeviceTaintRuleUpdate, ValidateDeviceTaintRuleStatusUpdate),
 * on fabric8's v1-shaped model: the metadata, the selector's driver, pool and device names, the
 * taint, and the status conditions. Stateless.
 */
public final class DeviceTaintRuleValidation {

  private static final FieldPath METADATA = FieldPath.root("metadata");
  private static final FieldPath SPEC = FieldPath.root("spec");
  private static final FieldPath STATUS = FieldPath.root("status");

  private DeviceTaintRuleValidation() {}

  /**
   * Validates a DeviceTaintRule being created.
   *
   * @param rule the rule
   * @param gates the server's feature gates (no rule of Kubernetes 1.36 reads them)
   * @return the errors, empty if the rule is valid
   */
  public static List<FieldError> validate(DeviceTaintRule rule, FeatureGates gates) {
    Objects.requireNonNull(rule, "rule");
    List<FieldError> errors = new ArrayList<>(ObjectMetaRules.objectMeta(rule.getMetadata(), false,
        ObjectMetaRules.NameFormat.DNS_SUBDOMAIN, METADATA));
    errors.addAll(spec(spec(rule), null));
    return errors;
  }

  /**
   * Validates an update of a DeviceTaintRule: what may not change in the metadata and the rules
   * of the new spec (an unchanged taint effect is not checked again).
   *
   * @param rule the new rule
   * @param old the stored rule
   * @param gates the server's feature gates
   * @return the errors, empty if the update is valid
   */
  public static List<FieldError> validateUpdate(DeviceTaintRule rule, DeviceTaintRule old,
      FeatureGates gates) {
    Objects.requireNonNull(rule, "rule");
    Objects.requireNonNull(old, "old");
    List<FieldError> errors = new ArrayList<>(ObjectMetaRules.objectMetaUpdate(
        meta(rule.getMetadata()), meta(old.getMetadata()), METADATA));
    errors.addAll(spec(spec(rule), spec(old)));
    return errors;
  }

  /**
   * Validates an update of a DeviceTaintRule's status: what may not change in the metadata, the
   * conditions, and at most 8 of them.
   *
   * @param rule the new rule
   * @param old the stored rule
   * @param gates the server's feature gates
   * @return the errors, empty if the update is valid
   */
  public static List<FieldError> validateStatusUpdate(DeviceTaintRule rule, DeviceTaintRule old,
      FeatureGates gates) {
    Objects.requireNonNull(rule, "rule");
    Objects.requireNonNull(old, "old");
    List<FieldError> errors = new ArrayList<>(ObjectMetaRules.objectMetaUpdate(
        meta(rule.getMetadata()), meta(old.getMetadata()), METADATA));
    FieldPath conditionsPath = STATUS.child("conditions");
    List<Condition> conditions = rule.getStatus() == null ? null : rule.getStatus().getConditions();
    errors.addAll(CoreRules.conditions(conditions, conditionsPath));
    if (conditions != null && conditions.size() > ResourceLimits.TAINT_RULE_STATUS_MAX_CONDITIONS) {
      errors.add(Errors.tooMany(conditionsPath, conditions.size(),
          ResourceLimits.TAINT_RULE_STATUS_MAX_CONDITIONS));
    }
    return errors;
  }

  // validateDeviceTaintRuleSpec
  private static List<FieldError> spec(DeviceTaintRuleSpec spec, DeviceTaintRuleSpec old) {
    List<FieldError> errors = new ArrayList<>(selector(spec.getDeviceSelector(),
        SPEC.child("deviceSelector")));
    DeviceTaint oldTaint = old == null ? null : taint(old);
    errors.addAll(DeviceFieldRules.taint(taint(spec), oldTaint, SPEC.child("taint")));
    return errors;
  }

  // validateDeviceTaintSelector: the names that are set, nothing else; no selector is valid.
  private static List<FieldError> selector(DeviceTaintSelector selector, FieldPath path) {
    List<FieldError> errors = new ArrayList<>();
    if (selector == null) {
      return errors;
    }
    if (selector.getDriver() != null) {
      errors.addAll(DeviceFieldRules.driverName(selector.getDriver(), path.child("driver")));
    }
    if (selector.getPool() != null) {
      errors.addAll(DeviceFieldRules.poolName(selector.getPool(), path.child("pool")));
    }
    if (selector.getDevice() != null) {
      errors.addAll(DeviceFieldRules.deviceName(selector.getDevice(), path.child("device")));
    }
    return errors;
  }

  private static DeviceTaintRuleSpec spec(DeviceTaintRule rule) {
    return rule.getSpec() == null ? new DeviceTaintRuleSpec() : rule.getSpec();
  }

  private static DeviceTaint taint(DeviceTaintRuleSpec spec) {
    return spec.getTaint() == null ? new DeviceTaint() : spec.getTaint();
  }

  private static ObjectMeta meta(ObjectMeta meta) {
    return meta == null ? new ObjectMeta() : meta;
  }
}
