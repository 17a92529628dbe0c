package io.github.dra4j.testing.apiserver.internal.dispatch;

import io.github.dra4j.core.name.NameRules;
import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.FieldErrorType;
import io.github.dra4j.testing.apiserver.internal.catalog.ResourceInfo;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * kube-apiserver's validation of {@code core/v1} Events on create and update ({@code
 * ValidateEventCreate} and {@code ValidateEventUpdate} for requests of version {@code v1}, which
 * apply the legacy rules, plus the object name's path-segment rule every write has): the
 * namespace a DNS subdomain; for an Event without {@code eventTime}, the namespace that of the
 * involved object, or {@code default} (or none) for a cluster-scoped one such as a Node; for an
 * Event with {@code eventTime}, {@code default} or {@code kube-system} for a cluster-scoped
 * object, and {@code reportingComponent} (a qualified name), {@code reportingInstance}, {@code
 * action} and {@code reason} required, at most 128 characters each, the message at most 1024.
 * A refused Event is answered with 422 {@code Invalid}. Stateless.
 */
final class EventRules {

  private static final int REPORTING_INSTANCE_LIMIT = 128;
  private static final int ACTION_LIMIT = 128;
  private static final int REASON_LIMIT = 128;
  private static final int NOTE_LIMIT = 1024;

  private EventRules() {}

  /**
   * Tells whether a resource is the core Events, which these rules govern.
   *
   * @param info the resource
   * @param behaviour whether the server enforces the API's rules
   * @return true for {@code v1} {@code events} while the rules are on
   */
  static boolean governs(ResourceInfo info, ServerBehaviour behaviour) {
    return behaviour.enforcesApiRules() && "Event".equals(info.kind())
        && info.gvr().group().isEmpty() && "v1".equals(info.gvr().version());
  }

  /**
   * Validates an Event about to be stored.
   *
   * @param event the object, its namespace settled
   * @throws ApiError 422 naming every refused field
   */
  static void validate(ObjectNode event) {
    List<FieldError> errors = new ArrayList<>();
    String namespace = text(event.path("metadata"), "namespace");
    String name = text(event.path("metadata"), "name");
    String involvedNamespace = text(event.path("involvedObject"), "namespace");
    boolean eventTime = !text(event, "eventTime").isEmpty();
    if (!eventTime) {
      boolean matches = involvedNamespace.isEmpty()
          ? namespace.isEmpty() || namespace.equals("default")
          : namespace.equals(involvedNamespace);
      if (!matches) {
        errors.add(invalid("involvedObject.namespace", involvedNamespace,
            "does not match event.namespace"));
      }
    } else {
      if (involvedNamespace.isEmpty() && !namespace.equals("default")
          && !namespace.equals("kube-system")) {
        errors.add(invalid("involvedObject.namespace", involvedNamespace,
            "does not match event.namespace"));
      }
      String controller = text(event, "reportingComponent");
      if (controller.isEmpty()) {
        errors.add(new FieldError(FieldErrorType.REQUIRED, "reportingComponent", null, ""));
      }
      NameRules.qualifiedName(controller)
          .ifPresent(problem -> errors.add(invalid("reportingComponent", controller, problem)));
      required(errors, event, "reportingInstance", REPORTING_INSTANCE_LIMIT);
      required(errors, event, "action", ACTION_LIMIT);
      required(errors, event, "reason", REASON_LIMIT);
      if (text(event, "message").length() > NOTE_LIMIT) {
        errors.add(invalid("message", "", "can have at most " + NOTE_LIMIT + " characters"));
      }
    }
    NameRules.dnsSubdomain(namespace, NameRules.DNS_SUBDOMAIN_MAX)
        .ifPresent(problem -> errors.add(invalid("namespace", namespace, problem)));
    if (name.equals(".") || name.equals("..")) {
      errors.add(invalid("metadata.name", name, "may not be '" + name + "'"));
    } else {
      for (String part : List.of("/", "%")) {
        if (name.contains(part)) {
          errors.add(invalid("metadata.name", name, "may not contain '" + part + "'"));
        }
      }
    }
    if (!errors.isEmpty()) {
      throw ApiError.invalid("Event", "", name, errors);
    }
  }

  private static void required(List<FieldError> errors, JsonNode event, String field, int limit) {
    String value = text(event, field);
    if (value.isEmpty()) {
      errors.add(new FieldError(FieldErrorType.REQUIRED, field, null, ""));
    }
    if (value.length() > limit) {
      errors.add(invalid(field, "", "can have at most " + limit + " characters"));
    }
  }

  private static FieldError invalid(String field, String value, String detail) {
    return new FieldError(FieldErrorType.INVALID, field, "\"" + value + "\"", detail);
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node.path(field);
    return value.isString() ? value.asString() : "";
  }
}
