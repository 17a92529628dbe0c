package io.github.dra4j.resourceapi.internal.device;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceToleration;
import io.github.dra4j.core.name.NameRules;
import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.ResourceLimits;
import io.github.dra4j.resourceapi.internal.field.Collections;
import io.github.dra4j.resourceapi.internal.field.Errors;
import io.github.dra4j.resourceapi.internal.field.FieldPath;
import io.github.dra4j.resourceapi.internal.field.GoValues;
import io.github.dra4j.resourceapi.internal.field.Json;
import io.github.dra4j.resourceapi.internal.meta.CoreRules;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Field rules that several {@code resource.k8s.io} kinds share, as Kubernetes 1.36's {@code
 * pkg/apis/resource/validation} applies them: names of drivers, pools, devices, device classes,
 * requests and counters, qualified attribute names, share UIDs, opaque JSON, taints,
 * tolerations and binding conditions. Stateless.
 */
public final class DeviceFieldRules {

  private static final List<String> TAINT_EFFECTS = List.of("NoExecute", "NoSchedule", "None");
  private static final List<String> TOLERATION_OPERATORS = List.of("Equal", "Exists");
  private static final String NORMALIZED_UID = "uid must be in RFC 4122 normalized form,"
      + " `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` with lowercase hexadecimal characters";
  private static final int UUID_LENGTH = 36;

  private DeviceFieldRules() {}

  /**
   * validateDriverName (ValidateCSIDriverName): Required, Too long over 63 bytes, a DNS
   * subdomain once lower-cased.
   *
   * @param value the value
   * @param path the field
   * @return the errors
   */
  public static List<FieldError> driverName(String value, FieldPath path) {
    return CoreRules.driverName(value, path);
  }

  /**
   * validatePoolName: Required when empty, else Too long over 253 bytes and each
   * {@code /}-separated part a DNS subdomain (its errors show the part, not the whole name).
   *
   * @param value the value
   * @param path the field
   * @return the errors
   */
  public static List<FieldError> poolName(String value, FieldPath path) {
    return Errors.at(NameRules.poolNameProblems(value), path);
  }

  /**
   * validateDeviceName (ValidateDNS1123Label).
   *
   * @param value the value
   * @param path the field
   * @return the errors
   */
  public static List<FieldError> deviceName(String value, FieldPath path) {
    return CoreRules.dnsLabel(value, path);
  }

  /**
   * validateDeviceClass: Required when empty, else a DNS subdomain.
   *
   * @param value the value
   * @param path the field
   * @return the errors
   */
  public static List<FieldError> deviceClassName(String value, FieldPath path) {
    if (value == null || value.isEmpty()) {
      return List.of(Errors.required(path, ""));
    }
    return CoreRules.dnsSubdomain(value, path);
  }

  /**
   * validateRequestName (ValidateDNS1123Label).
   *
   * @param value the value
   * @param path the field
   * @return the errors
   */
  public static List<FieldError> requestName(String value, FieldPath path) {
    return CoreRules.dnsLabel(value, path);
  }

  /**
   * validateCounterName (ValidateDNS1123Label).
   *
   * @param value the value
   * @param path the field
   * @return the errors
   */
  public static List<FieldError> counterName(String value, FieldPath path) {
    return CoreRules.dnsLabel(value, path);
  }

  /**
   * validateQualifiedName: a C identifier of at most 32 bytes, optionally after a domain (a
   * driver name: at most 63 bytes, a DNS subdomain once lower-cased) and a slash; an empty
   * domain or identifier around the slash is {@code Invalid} with the value {@code ""}. Every
   * error is reported at the given path (the map's, for attribute and capacity keys).
   *
   * @param value the value
   * @param path the field
   * @return the errors
   */
  public static List<FieldError> qualifiedName(String value, FieldPath path) {
    return Errors.at(NameRules.qualifiedNameProblems(value), path);
  }

  /**
   * validateFullyQualifiedName: a qualified name that has a domain.
   *
   * @param value the value
   * @param path the field
   * @return the errors
   */
  public static List<FieldError> fullyQualifiedName(String value, FieldPath path) {
    String name = value == null ? "" : value;
    List<FieldError> errors = new ArrayList<>(qualifiedName(name, path));
    if (name.indexOf('/') < 0) {
      errors.add(Errors.invalid(path, GoValues.typed(name),
          "a fully qualified name must be a domain and a name separated by a slash"));
    }
    return errors;
  }

  /**
   * validateUID: google/uuid's Validate ({@code error validating uid: ...}), then the normalized
   * form (36 characters, lower case).
   *
   * @param value the value
   * @param path the field
   * @return the errors
   */
  public static List<FieldError> uid(String value, FieldPath path) {
    String uid = value == null ? "" : value;
    String problem = DeviceNames.uuidProblem(uid);
    if (problem != null) {
      return List.of(Errors.invalid(path, uid, "error validating uid: " + problem));
    }
    if (uid.length() != UUID_LENGTH || !uid.equals(uid.toLowerCase(Locale.ROOT))) {
      return List.of(Errors.invalid(path, uid, NORMALIZED_UID));
    }
    return List.of();
  }

  /**
   * validateRawExtension: Required when absent or JSON {@code null}; Too long over {@code
   * maxLength} bytes unless stored; {@code must be a valid JSON object} (value {@code "<value
   * omitted>"}) for JSON that is not an object. The size is that of the value's compact JSON (the
   * server measures the bytes as sent, whitespace included). The server's {@code error parsing
   * data as JSON} cannot occur here: a value fabric8 decoded is valid JSON.
   *
   * @param raw the value as fabric8 decoded it (a map for a JSON object; a list, string, number,
   *     boolean for other JSON), null if absent; its size is that of its compact JSON
   * @param path the field
   * @param stored whether the object was stored before (size not checked)
   * @param maxLength the limit in bytes
   * @return the errors
   */
  public static List<FieldError> rawExtension(Object raw, FieldPath path, boolean stored,
      int maxLength) {
    Object plain = Json.plain(raw); // fabric8's wrappers of free-form JSON unwrapped
    if (plain == null) {
      return List.of(Errors.required(path, ""));
    }
    if (!stored && Json.size(plain) > maxLength) {
      return List.of(Errors.tooLong(path, maxLength));
    }
    if (!(plain instanceof Map<?, ?>)) {
      return List.of(Errors.invalid(path, "<value omitted>", "must be a valid JSON object"));
    }
    return List.of();
  }

  /**
   * validateDeviceTaint: the key (a label name, required), the value (a label value when set),
   * and the effect (required, NoExecute, NoSchedule or None) unless unchanged from the stored
   * taint.
   *
   * @param taint the taint
   * @param old the stored taint (effect not rechecked when unchanged), or null
   * @param path the field
   * @return the errors
   */
  public static List<FieldError> taint(DeviceTaint taint, DeviceTaint old, FieldPath path) {
    DeviceTaint t = taint == null ? new DeviceTaint() : taint;
    List<FieldError> errors = new ArrayList<>(CoreRules.labelName(t.getKey(), path.child("key")));
    String value = t.getValue() == null ? "" : t.getValue();
    if (!value.isEmpty()) {
      errors.addAll(CoreRules.labelValue(value, path.child("value")));
    }
    String effect = t.getEffect() == null ? "" : t.getEffect();
    String oldEffect = old == null ? null : old.getEffect() == null ? "" : old.getEffect();
    if (!effect.equals(oldEffect)) {
      if (effect.isEmpty()) {
        errors.add(Errors.required(path.child("effect"), ""));
      } else if (!TAINT_EFFECTS.contains(effect)) {
        errors.add(Errors.notSupported(path.child("effect"), GoValues.typed(effect),
            TAINT_EFFECTS));
      }
    }
    return errors;
  }

  /**
   * validateDeviceToleration: the key (a label name when set), the operator (required, Exists
   * with an empty value, or Equal with a label value) and the effect (optional, NoExecute,
   * NoSchedule or None).
   *
   * @param toleration the toleration
   * @param path the field
   * @return the errors
   */
  public static List<FieldError> toleration(DeviceToleration toleration, FieldPath path) {
    DeviceToleration t = toleration == null ? new DeviceToleration() : toleration;
    List<FieldError> errors = new ArrayList<>();
    String key = t.getKey() == null ? "" : t.getKey();
    if (!key.isEmpty()) {
      errors.addAll(CoreRules.labelName(key, path.child("key")));
    }
    String value = t.getValue() == null ? "" : t.getValue();
    String operator = t.getOperator() == null ? "" : t.getOperator();
    switch (operator) {
      case "Exists" -> {
        if (!value.isEmpty()) {
          errors.add(Errors.invalid(path.child("value"), value,
              "must be empty for operator `Exists`"));
        }
      }
      case "Equal" -> errors.addAll(CoreRules.labelValue(value, path.child("value")));
      case "" -> errors.add(Errors.required(path.child("operator"), ""));
      default -> errors.add(Errors.notSupported(path.child("operator"), GoValues.typed(operator),
          TOLERATION_OPERATORS));
    }
    String effect = t.getEffect() == null ? "" : t.getEffect();
    if (!effect.isEmpty() && !TAINT_EFFECTS.contains(effect)) {
      errors.add(Errors.notSupported(path.child("effect"), GoValues.typed(effect),
          TAINT_EFFECTS));
    }
    return errors;
  }

  /**
   * validateDeviceBindingParameters: at most 4 of each list (one Too many, items unchecked),
   * each a label name; no duplicates in either list; no failure condition that is also a binding
   * condition; and either both lists or neither. An empty list prints as Go's nil slice
   * ({@code null}).
   *
   * @param bindingConditions the binding conditions, may be null
   * @param bindingFailureConditions the binding failure conditions, may be null
   * @param path the device's or result's field
   * @return the errors
   */
  public static List<FieldError> bindingParameters(List<String> bindingConditions,
      List<String> bindingFailureConditions, FieldPath path) {
    List<String> conditions = bindingConditions == null ? List.of() : bindingConditions;
    List<String> failures = bindingFailureConditions == null ? List.of()
        : bindingFailureConditions;
    if (conditions.isEmpty() && failures.isEmpty()) {
      return List.of();
    }
    FieldPath conditionsPath = path.child("bindingConditions");
    FieldPath failuresPath = path.child("bindingFailureConditions");
    List<FieldError> errors = new ArrayList<>(Collections.list(conditions,
        ResourceLimits.BINDING_CONDITIONS_MAX, CoreRules::labelName, conditionsPath));
    errors.addAll(Collections.list(failures, ResourceLimits.BINDING_FAILURE_CONDITIONS_MAX,
        CoreRules::labelName, failuresPath));
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < conditions.size(); i++) {
      String condition = Objects.toString(conditions.get(i), "");
      if (!seen.add(condition)) {
        errors.add(Errors.duplicate(conditionsPath.index(i), condition));
      }
    }
    Set<String> seenFailures = new HashSet<>();
    for (int i = 0; i < failures.size(); i++) {
      String condition = Objects.toString(failures.get(i), "");
      if (!seenFailures.add(condition)) {
        errors.add(Errors.duplicate(failuresPath.index(i), condition));
      }
      if (seen.contains(condition)) {
        errors.add(Errors.invalid(failuresPath.index(i), condition,
            "bindingFailureConditions must not overlap with bindingConditions"));
      }
    }
    GoValues.Raw nil = new GoValues.Raw("null");
    if (conditions.isEmpty()) {
      errors.add(Errors.invalid(conditionsPath, nil,
          "bindingConditions are required to use bindingFailureConditions"));
    }
    if (failures.isEmpty()) {
      errors.add(Errors.invalid(failuresPath, nil,
          "bindingFailureConditions are required to use bindingConditions"));
    }
    return errors;
  }

}
