package io.github.dra4j.testing.apiserver.internal.dispatch;

import io.github.dra4j.testing.apiserver.internal.catalog.ResourceInfo;
import io.github.dra4j.testing.apiserver.internal.schema.ModelTypes;
import io.github.dra4j.testing.apiserver.internal.schema.UnknownFields;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Unknown fields in the objects of creates and updates and in patched objects, as the real API
 * server treats them under the {@code fieldValidation} directive: {@code Strict} fails the request
 * with 400 if the object has fields its kind does not declare, {@code Warn} (the default) answers
 * with one {@code Warning} header per such field, {@code Ignore} does neither. Whatever the
 * directive, unknown fields are dropped from what is stored. Kinds without a fabric8 model class
 * are not checked. Immutable.
 */
final class FieldValidation {

  private final ModelTypes types;
  private final UnknownFields unknownFields;

  FieldValidation(ModelTypes types) {
    this.types = types;
    this.unknownFields = new UnknownFields(types);
  }

  /**
   * Checks a request body.
   *
   * @param directive Ignore, Warn or Strict (already checked)
   * @param info the resource
   * @param body the object sent, or the object a patch made
   * @return the warnings to answer with ({@code unknown field "spec.x"}); empty unless the
   *     directive is Warn
   * @throws ApiError 400 for unknown fields under Strict
   */
  List<String> check(String directive, ResourceInfo info, JsonNode body) {
    Optional<Class<?>> kindClass = types.kindClass(info.gvr().groupVersion(), info.kind());
    if (directive.equals("Ignore") || kindClass.isEmpty() || !body.isObject()) {
      return List.of();
    }
    List<String> unknown = unknownFields.find(body, kindClass.get()).stream()
        .map(path -> "unknown field \"" + path + "\"")
        .toList();
    if (unknown.isEmpty()) {
      return List.of();
    }
    if (directive.equals("Strict")) {
      throw new ApiError(400, "BadRequest", info.kind() + " in version \"" + info.gvr().version()
          + "\" cannot be handled as a " + info.kind() + ": strict decoding error: "
          + String.join(", ", unknown));
    }
    return unknown;
  }

  /**
   * Drops the fields an object's kind does not declare, as the server does before storing it.
   *
   * @param info the resource
   * @param object the object to store, changed in place
   */
  void dropUnknown(ResourceInfo info, ObjectNode object) {
    types.kindClass(info.gvr().groupVersion(), info.kind())
        .ifPresent(kindClass -> unknownFields.remove(object, kindClass));
  }
}
