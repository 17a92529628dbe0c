package io.github.dra4j.testing.apiserver.internal.dispatch;

import io.github.dra4j.resourceapi.Admission;
import io.github.dra4j.resourceapi.ResourceApiRules;
import io.github.dra4j.testing.apiserver.internal.catalog.ResourceInfo;
import java.util.List;
import java.util.function.Supplier;
import tools.jackson.databind.node.ObjectNode;

/**
 * kube-apiserver's rules for {@code resource.k8s.io} on the write path of the in-memory server:
 * each create, update and status update of a kind the rules govern goes through {@link
 * ResourceApiRules} (defaults, strategy, validation), and what they would store is what the store
 * gets. A refused write is answered with 422 {@code Invalid} and its causes, a body that does not
 * decode as its kind with 400. Other kinds pass unchanged. Thread-safe: the rules are immutable
 * and the switch is read once per write.
 */
final class RulesAdmission {

  private final ResourceApiRules rules;
  private final ServerBehaviour behaviour;

  RulesAdmission(ResourceApiRules rules, ServerBehaviour behaviour) {
    this.rules = rules;
    this.behaviour = behaviour;
  }

  /**
   * Tells whether the rules govern a resource's objects and are switched on.
   *
   * @param info the resource
   * @return true if writes of it go through the rules
   */
  boolean governs(ResourceInfo info) {
    return info.kind() != null && behaviour.enforcesApiRules()
        && rules.governs(info.gvr().groupVersion(), info.kind());
  }

  /**
   * Tells whether the rules govern objects of a kind and are switched on.
   *
   * @param apiVersion e.g. {@code resource.k8s.io/v1}
   * @param kind e.g. {@code ResourceClaim}
   * @return true if writes of such objects go through the rules
   */
  boolean governs(String apiVersion, String kind) {
    return behaviour.enforcesApiRules() && rules.governs(apiVersion, kind);
  }

  /**
   * Admits a create.
   *
   * @param info the resource, which the rules govern
   * @param body the object sent (with its name settled and unknown fields dropped)
   * @param warnings where the answer's warnings are added
   * @return the object to store
   * @throws ApiError 422 with the refused fields, 400 if the body does not decode
   */
  ObjectNode create(ResourceInfo info, ObjectNode body, List<String> warnings) {
    return admitted(info, body, warnings, () -> rules.create(withKind(info, body)));
  }

  /**
   * Admits an update of the main resource or of its status.
   *
   * @param info the resource, which the rules govern
   * @param body the whole new object (a patch already applied)
   * @param stored the object as stored now
   * @param status whether the request addressed the {@code status} subresource
   * @param warnings where the answer's warnings are added
   * @return the object to store
   * @throws ApiError 422 with the refused fields, 400 if the body does not decode
   */
  ObjectNode update(ResourceInfo info, ObjectNode body, ObjectNode stored, boolean status,
      List<String> warnings) {
    return admitted(info, body, warnings, () -> status
        ? rules.updateStatus(withKind(info, body), withKind(info, stored))
        : rules.update(withKind(info, body), withKind(info, stored)));
  }

  private static ObjectNode admitted(ResourceInfo info, ObjectNode body, List<String> warnings,
      Supplier<Admission> admission) {
    Admission result;
    try {
      result = admission.get();
    } catch (IllegalArgumentException e) {
      throw new ApiError(400, "BadRequest", info.kind() + " in version \"" + info.gvr().version()
          + "\" cannot be handled as a " + info.kind() + ": " + e.getMessage());
    }
    if (!result.accepted()) {
      throw ApiError.invalid(info.kind(), info.gvr().group(),
          body.path("metadata").path("name").asString(""), result.errors());
    }
    warnings.addAll(result.warnings());
    return result.object();
  }

  /** The body with the apiVersion and kind of the path it was sent to, as the server reads it. */
  private static ObjectNode withKind(ResourceInfo info, ObjectNode body) {
    ObjectNode copy = body.deepCopy();
    copy.put("apiVersion", info.gvr().groupVersion());
    copy.put("kind", info.kind());
    return copy;
  }
}
