package io.github.dra4j.resourceapi.internal.meta;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.NodeSelector;
import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.internal.field.FieldPath;
import java.util.List;

/**
 * Rules of the core API and apimachinery that {@code resource.k8s.io} reuses (STUB: signatures
 * fixed, bodies to be written).
 */
public final class CoreRules {

  private CoreRules() {}

  /**
   * ValidateDNS1123Label.
   *
   * @param value the value
   * @param path the field
   * @return the errors
   */
  public static List<FieldError> dnsLabel(String value, FieldPath path) {
    return List.of();
  }

  /**
   * ValidateDNS1123Subdomain.
   *
   * @param value the value
   * @param path the field
   * @return the errors
   */
  public static List<FieldError> dnsSubdomain(String value, FieldPath path) {
    return List.of();
  }

  /**
   * ValidateCSIDriverName, which DRA driver names share.
   *
   * @param value the value
   * @param path the field
   * @return the errors
   */
  public static List<FieldError> driverName(String value, FieldPath path) {
    return List.of();
  }

  /**
   * ValidateNodeName as {@code resource.k8s.io} reports it (one Invalid per message).
   *
   * @param value the value
   * @param path the field
   * @return the errors
   */
  public static List<FieldError> nodeName(String value, FieldPath path) {
    return List.of();
  }

  /**
   * ValidateNodeSelector with invalid label values in required node affinity not allowed.
   *
   * @param selector the selector, not null
   * @param path the field
   * @return the errors
   */
  public static List<FieldError> nodeSelector(NodeSelector selector, FieldPath path) {
    return List.of();
  }

  /**
   * metav1 ValidateLabelName: a qualified name (optional DNS subdomain prefix and slash).
   *
   * @param value the value
   * @param path the field
   * @return the errors
   */
  public static List<FieldError> labelName(String value, FieldPath path) {
    return List.of();
  }

  /**
   * IsValidLabelValue, one Invalid per message.
   *
   * @param value the value
   * @param path the field
   * @return the errors
   */
  public static List<FieldError> labelValue(String value, FieldPath path) {
    return List.of();
  }

  /**
   * IsCIdentifier, one Invalid per message.
   *
   * @param value the value
   * @param path the field
   * @return the errors
   */
  public static List<FieldError> cIdentifier(String value, FieldPath path) {
    return List.of();
  }

  /**
   * metav1 ValidateConditions: type, status, reason, message, observedGeneration,
   * lastTransitionTime, and unique types.
   *
   * @param conditions the conditions, may be null
   * @param path the list's field
   * @return the errors
   */
  public static List<FieldError> conditions(List<Condition> conditions, FieldPath path) {
    return List.of();
  }

  /**
   * IsValidInterfaceAddress: an IP address with a prefix length, canonical.
   *
   * @param value the value
   * @param path the field
   * @return the errors
   */
  public static List<FieldError> interfaceAddress(String value, FieldPath path) {
    return List.of();
  }

  /**
   * IsExtendedResourceName.
   *
   * @param value the value
   * @return true if it is an extended resource name
   */
  public static boolean isExtendedResourceName(String value) {
    return true;
  }
}
