package io.github.dra4j.resourceapi.internal.device;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceToleration;
import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.internal.field.FieldPath;
import java.util.List;

/**
 * Field rules that several {@code resource.k8s.io} kinds share: names of drivers, pools, devices,
 * device classes, requests and counters, qualified attribute names, share UIDs, opaque JSON,
 * taints, tolerations, binding conditions (STUB: signatures fixed, bodies to be written).
 */
public final class DeviceFieldRules {

  private DeviceFieldRules() {}

  /**
   * validateDriverName.
   *
   * @param value the value
   * @param path the field
   * @return the errors
   */
  public static List<FieldError> driverName(String value, FieldPath path) {
    return List.of();
  }

  /**
   * validatePoolName.
   *
   * @param value the value
   * @param path the field
   * @return the errors
   */
  public static List<FieldError> poolName(String value, FieldPath path) {
    return List.of();
  }

  /**
   * validateDeviceName (a DNS label).
   *
   * @param value the value
   * @param path the field
   * @return the errors
   */
  public static List<FieldError> deviceName(String value, FieldPath path) {
    return List.of();
  }

  /**
   * validateDeviceClass: required, then a DNS subdomain.
   *
   * @param value the value
   * @param path the field
   * @return the errors
   */
  public static List<FieldError> deviceClassName(String value, FieldPath path) {
    return List.of();
  }

  /**
   * validateRequestName (a DNS label).
   *
   * @param value the value
   * @param path the field
   * @return the errors
   */
  public static List<FieldError> requestName(String value, FieldPath path) {
    return List.of();
  }

  /**
   * validateCounterName (a DNS label).
   *
   * @param value the value
   * @param path the field
   * @return the errors
   */
  public static List<FieldError> counterName(String value, FieldPath path) {
    return List.of();
  }

  /**
   * validateQualifiedName: a C identifier, optionally after a domain and a slash.
   *
   * @param value the value
   * @param path the field
   * @return the errors
   */
  public static List<FieldError> qualifiedName(String value, FieldPath path) {
    return List.of();
  }

  /**
   * validateFullyQualifiedName: a qualified name that has a domain.
   *
   * @param value the value
   * @param path the field
   * @return the errors
   */
  public static List<FieldError> fullyQualifiedName(String value, FieldPath path) {
    return List.of();
  }

  /**
   * validateUID: an RFC 4122 UUID in normalized (lower-case) form.
   *
   * @param value the value
   * @param path the field
   * @return the errors
   */
  public static List<FieldError> uid(String value, FieldPath path) {
    return List.of();
  }

  /**
   * validateRawExtension: present, at most {@code maxLength} bytes unless stored, a JSON object.
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
    return List.of();
  }

  /**
   * validateDeviceTaint.
   *
   * @param taint the taint
   * @param old the stored taint (effect not rechecked when unchanged), or null
   * @param path the field
   * @return the errors
   */
  public static List<FieldError> taint(DeviceTaint taint, DeviceTaint old, FieldPath path) {
    return List.of();
  }

  /**
   * validateDeviceToleration.
   *
   * @param toleration the toleration
   * @param path the field
   * @return the errors
   */
  public static List<FieldError> toleration(DeviceToleration toleration, FieldPath path) {
    return List.of();
  }

  /**
   * validateDeviceBindingParameters: sizes, label-name format, duplicates, overlap, pairing.
   *
   * @param bindingConditions the binding conditions, may be null
   * @param bindingFailureConditions the binding failure conditions, may be null
   * @param path the device's or result's field
   * @return the errors
   */
  public static List<FieldError> bindingParameters(List<String> bindingConditions,
      List<String> bindingFailureConditions, FieldPath path) {
    return List.of();
  }
}
