package io.github.dra4j.resourceapi.internal.meta;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.github.dra4j.core.name.NameFormats;
import io.github.dra4j.core.name.NameRules;
import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.internal.field.Errors;
import io.github.dra4j.resourceapi.internal.field.FieldPath;
import io.github.dra4j.resourceapi.internal.field.GoValues;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Rules of the core API and apimachinery that {@code resource.k8s.io} reuses, as Kubernetes 1.36
 * applies them: DNS names, CSI-style driver names, node names and node selectors, label keys and
 * values, C identifiers, conditions, interface addresses and extended resource names. The string
 * formats and their messages come from {@link NameFormats}. Stateless.
 */
public final class CoreRules {

  /** metav1 ValidateCondition's limit on a reason, in bytes. */
  public static final int CONDITION_REASON_MAX_LENGTH = 1024;
  /** metav1 ValidateCondition's limit on a message, in bytes. */
  public static final int CONDITION_MESSAGE_MAX_LENGTH = 32 * 1024;

  private static final List<String> CONDITION_STATUSES = List.of("False", "True", "Unknown");
  private static final String OBJECT_NAME_FIELD = "metadata.name";

  private CoreRules() {}

  /**
   * ValidateDNS1123Label: one Invalid per message of IsDNS1123Label.
   *
   * @param value the value (null as empty)
   * @param path the field
   * @return the errors
   */
  public static List<FieldError> dnsLabel(String value, FieldPath path) {
    return Errors.at(NameRules.dnsLabelProblems(value), path);
  }

  /**
   * ValidateDNS1123Subdomain: one Invalid per message of IsDNS1123Subdomain.
   *
   * @param value the value (null as empty)
   * @param path the field
   * @return the errors
   */
  public static List<FieldError> dnsSubdomain(String value, FieldPath path) {
    return Errors.at(NameRules.dnsSubdomainProblems(value, NameRules.DNS_SUBDOMAIN_MAX), path);
  }

  /**
   * ValidateCSIDriverName, which DRA driver names share: Required when empty (and nothing else),
   * Too long over 63 bytes, then the DNS subdomain rule applied to the lower-cased name (upper
   * case is accepted), each message as Invalid with the name as given.
   *
   * @param value the value (null as empty)
   * @param path the field
   * @return the errors
   */
  public static List<FieldError> driverName(String value, FieldPath path) {
    return Errors.at(NameRules.driverNameProblems(value), path);
  }

  /**
   * ValidateNodeName (NameIsDNSSubdomain) as {@code resource.k8s.io}'s validateNodeName reports
   * it: one Invalid per message.
   *
   * @param value the value (null as empty)
   * @param path the field
   * @return the errors
   */
  public static List<FieldError> nodeName(String value, FieldPath path) {
    return dnsSubdomain(value, path);
  }

  /**
   * ValidateNodeSelector with invalid label values in required node affinity not allowed: at
   * least one term; per term its match expressions (operators In, NotIn, Exists, DoesNotExist,
   * Gt, Lt with their value counts, label-name keys, label values) and match fields (In or NotIn
   * with exactly one value, only {@code metadata.name}, values that are node names). An empty term
   * is accepted (it matches nothing).
   *
   * @param selector the selector, not null
   * @param path the field
   * @return the errors
   */
  public static List<FieldError> nodeSelector(NodeSelector selector, FieldPath path) {
    FieldPath termsPath = path.child("nodeSelectorTerms");
    List<NodeSelectorTerm> terms = selector.getNodeSelectorTerms();
    if (terms == null || terms.isEmpty()) {
      return List.of(Errors.required(termsPath, "must have at least one node selector term"));
    }
    List<FieldError> errors = new ArrayList<>();
    for (int i = 0; i < terms.size(); i++) {
      NodeSelectorTerm term = terms.get(i);
      if (term == null) {
        continue;
      }
      FieldPath termPath = termsPath.index(i);
      List<NodeSelectorRequirement> expressions = term.getMatchExpressions();
      for (int j = 0; expressions != null && j < expressions.size(); j++) {
        errors.addAll(labelRequirement(expressions.get(j),
            termPath.child("matchExpressions").index(j)));
      }
      List<NodeSelectorRequirement> fields = term.getMatchFields();
      for (int j = 0; fields != null && j < fields.size(); j++) {
        errors.addAll(fieldRequirement(fields.get(j), termPath.child("matchFields").index(j)));
      }
    }
    return errors;
  }

  /**
   * metav1 ValidateLabelName: a qualified name (optional DNS subdomain prefix and slash), one
   * Invalid per message. Empty is invalid.
   *
   * @param value the value (null as empty)
   * @param path the field
   * @return the errors
   */
  public static List<FieldError> labelName(String value, FieldPath path) {
    return Errors.at(NameRules.labelKeyProblems(value), path);
  }

  /**
   * IsValidLabelValue, one Invalid per message. Empty is valid.
   *
   * @param value the value (null as empty)
   * @param path the field
   * @return the errors
   */
  public static List<FieldError> labelValue(String value, FieldPath path) {
    return Errors.at(NameRules.labelValueProblems(value), path);
  }

  /**
   * IsCIdentifier (content.IsCIdentifier), one Invalid per message. The length is not checked.
   *
   * @param value the value (null as empty)
   * @param path the field
   * @return the errors
   */
  public static List<FieldError> cIdentifier(String value, FieldPath path) {
    String text = orEmpty(value);
    return invalidEach(path, text, NameFormats.cIdentifier(text));
  }

  /**
   * metav1 ValidateConditions: for each condition in order, a Duplicate type, then the type as a
   * label name, the status (True, False or Unknown), a non-negative observedGeneration, a
   * lastTransitionTime, a reason (required, its format, at most 1024 bytes) and a message of at
   * most 32768 bytes. The caller checks the number of conditions.
   *
   * @param conditions the conditions, may be null
   * @param path the list's field
   * @return the errors
   */
  public static List<FieldError> conditions(List<Condition> conditions, FieldPath path) {
    if (conditions == null || conditions.isEmpty()) {
      return List.of();
    }
    List<FieldError> errors = new ArrayList<>();
    Set<String> types = new HashSet<>();
    for (int i = 0; i < conditions.size(); i++) {
      Condition condition = conditions.get(i) == null ? new Condition() : conditions.get(i);
      FieldPath itemPath = path.index(i);
      String type = orEmpty(condition.getType());
      if (!types.add(type)) {
        errors.add(Errors.duplicate(itemPath.child("type"), type));
      }
      errors.addAll(condition(condition, itemPath));
    }
    return errors;
  }

  /**
   * IsValidInterfaceAddress: an IP address with a prefix length, written in canonical form.
   *
   * @param value the value (null as empty)
   * @param path the field
   * @return the errors
   */
  public static List<FieldError> interfaceAddress(String value, FieldPath path) {
    String text = orEmpty(value);
    return invalidEach(path, text, NameFormats.interfaceAddress(text));
  }

  /**
   * IsExtendedResourceName (core v1 helper): not in the {@code kubernetes.io/} namespace (a name
   * without a slash is implicitly there), not starting with {@code requests.}, and a qualified
   * name once prefixed with {@code requests.}.
   *
   * @param value the value, may be null
   * @return true if it is an extended resource name
   */
  public static boolean isExtendedResourceName(String value) {
    if (value == null || value.indexOf('/') < 0 || value.contains("kubernetes.io/")
        || value.startsWith("requests.")) {
      return false;
    }
    return NameFormats.isQualifiedName("requests." + value);
  }

  private static List<FieldError> condition(Condition condition, FieldPath path) {
    List<FieldError> errors = new ArrayList<>(labelName(condition.getType(), path.child("type")));
    String status = orEmpty(condition.getStatus());
    if (!CONDITION_STATUSES.contains(status)) {
      errors.add(Errors.notSupported(path.child("status"), GoValues.typed(status),
          CONDITION_STATUSES));
    }
    Long observed = condition.getObservedGeneration();
    if (observed != null && observed < 0) {
      errors.add(Errors.invalid(path.child("observedGeneration"), observed,
          "must be greater than or equal to zero"));
    }
    if (Timestamps.isZero(condition.getLastTransitionTime())) {
      errors.add(Errors.required(path.child("lastTransitionTime"), "must be set"));
    }
    String reason = orEmpty(condition.getReason());
    if (reason.isEmpty()) {
      errors.add(Errors.required(path.child("reason"), "must be set"));
    } else {
      errors.addAll(invalidEach(path.child("reason"), reason,
          NameFormats.conditionReason(reason)));
      if (NameFormats.utf8Length(reason) > CONDITION_REASON_MAX_LENGTH) {
        errors.add(Errors.tooLong(path.child("reason"), CONDITION_REASON_MAX_LENGTH));
      }
    }
    if (NameFormats.utf8Length(orEmpty(condition.getMessage())) > CONDITION_MESSAGE_MAX_LENGTH) {
      errors.add(Errors.tooLong(path.child("message"), CONDITION_MESSAGE_MAX_LENGTH));
    }
    return errors;
  }

  private static List<FieldError> labelRequirement(NodeSelectorRequirement requirement,
      FieldPath path) {
    NodeSelectorRequirement rq = requirement == null ? new NodeSelectorRequirement() : requirement;
    List<String> values = rq.getValues() == null ? List.of() : rq.getValues();
    List<FieldError> errors = new ArrayList<>();
    String operator = orEmpty(rq.getOperator());
    switch (operator) {
      case "In", "NotIn" -> {
        if (values.isEmpty()) {
          errors.add(Errors.required(path.child("values"),
              "must be specified when `operator` is 'In' or 'NotIn'"));
        }
      }
      case "Exists", "DoesNotExist" -> {
        if (!values.isEmpty()) {
          errors.add(Errors.forbidden(path.child("values"),
              "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
        }
      }
      case "Gt", "Lt" -> {
        if (values.size() != 1) {
          errors.add(Errors.required(path.child("values"),
              "must be specified single value when `operator` is 'Lt' or 'Gt'"));
        }
      }
      default -> errors.add(Errors.invalid(path.child("operator"), GoValues.typed(operator),
          "not a valid selector operator"));
    }
    errors.addAll(labelName(rq.getKey(), path.child("key")));
    for (int i = 0; i < values.size(); i++) {
      errors.addAll(labelValue(values.get(i), path.child("values").index(i)));
    }
    return errors;
  }

  private static List<FieldError> fieldRequirement(NodeSelectorRequirement requirement,
      FieldPath path) {
    NodeSelectorRequirement rq = requirement == null ? new NodeSelectorRequirement() : requirement;
    List<String> values = rq.getValues() == null ? List.of() : rq.getValues();
    List<FieldError> errors = new ArrayList<>();
    String operator = orEmpty(rq.getOperator());
    if (operator.equals("In") || operator.equals("NotIn")) {
      if (values.size() != 1) {
        errors.add(Errors.required(path.child("values"),
            "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
      }
    } else {
      errors.add(Errors.invalid(path.child("operator"), GoValues.typed(operator),
          "not a valid selector operator"));
    }
    String key = orEmpty(rq.getKey());
    if (!key.equals(OBJECT_NAME_FIELD)) {
      errors.add(Errors.invalid(path.child("key"), key, "not a valid field selector key"));
    } else {
      for (int i = 0; i < values.size(); i++) {
        errors.addAll(nodeName(values.get(i), path.child("values").index(i)));
      }
    }
    return errors;
  }

  static List<FieldError> invalidEach(FieldPath path, String value, List<String> messages) {
    if (messages.isEmpty()) {
      return List.of();
    }
    List<FieldError> errors = new ArrayList<>(messages.size());
    for (String message : messages) {
      errors.add(Errors.invalid(path, value, message));
    }
    return errors;
  }

  static String orEmpty(String value) {
    return value == null ? "" : value;
  }
}
