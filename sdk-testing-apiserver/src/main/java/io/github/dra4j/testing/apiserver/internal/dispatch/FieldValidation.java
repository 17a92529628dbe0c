package io.github.dra4j.testing.apiserver.internal.dispatch;

import io.github.dra4j.testing.apiserver.internal.catalog.ResourceInfo;
import io.github.dra4j.testing.apiserver.internal.schema.ModelTypes;
import io.github.dra4j.testing.apiserver.internal.schema.UnknownFields;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The {@code fieldValidation} query parameter of create, update and patch, as the real API server
 * treats it: {@code Strict} fails the request with 400 if the body has fields its kind does not
 * declare, {@code Warn} (the default) answers with one {@code Warning} header per such field,
 * {@code Ignore} does neither. Unknown fields are kept in the stored object (a real server drops
 * them). JSON patches and kinds without a fabric8 model class are not checked. Immutable.
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
   * @param target the request
   * @param info the resource
   * @param body the object, or the merge patch, sent
   * @return the {@code Warning} header values to answer with; empty unless the directive is Warn
   * @throws ApiError 400 for an unknown directive, or for unknown fields under Strict
   */
  List<String> check(RequestTarget target, ResourceInfo info, JsonNode body) {
    String directive = target.queryParameter("fieldValidation");
    if (directive == null || directive.isEmpty()) {
      directive = "Warn";
    }
    if (!List.of("Ignore", "Warn", "Strict").contains(directive)) {
      throw new ApiError(400, "BadRequest", "invalid fieldValidation \"" + directive
          + "\": must be Ignore, Warn or Strict");
    }
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
    return unknown.stream()
        .map(message -> "299 - \"" + message.replace("\\", "\\\\").replace("\"", "\\\"") + "\"")
        .toList();
  }
}
