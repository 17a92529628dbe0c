package io.github.dra4j.testing.apiserver.internal.dispatch;

import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.zjsonpatch.JsonDiff;
import io.fabric8.zjsonpatch.JsonPatch;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * The patch formats the in-memory API server accepts, by {@code Content-Type}: JSON patch, JSON
 * merge patch, and strategic merge patch (what {@code kubectl patch} and {@code kubectl apply}
 * send), which is applied as a JSON merge patch. That is exact for the maps and scalars of a
 * patch and for lists a real server treats as atomic; a list that declares a patch merge key (such
 * as a claim's {@code status.reservedFor}) is replaced where a real server merges it, and the
 * {@code $}-directives are refused (400). Merge patches are applied here (RFC 7386) and handed to
 * the fabric8 store as the equivalent JSON patch, because the store's own merge appends to arrays.
 * Server-side apply is not supported; it and unknown formats answer 415 like a real server.
 * Stateless.
 */
final class PatchTypes {

  private static final String JSON_PATCH = "application/json-patch+json";
  private static final String MERGE_PATCH = "application/merge-patch+json";
  private static final String STRATEGIC_MERGE_PATCH = "application/strategic-merge-patch+json";

  private PatchTypes() {}

  /**
   * Turns a patch request into a JSON patch for the fabric8 store.
   *
   * @param request the PATCH request
   * @param patch its parsed body
   * @param current the object as stored now, or null if there is none
   * @param target what the request addresses, for the not-found answer
   * @return the request to hand to the store: a JSON patch as it came, a merge patch as the JSON
   *     patch that has the same effect
   * @throws ApiError 415 for a missing or unsupported content type, 400 for a strategic merge
   *     patch directive, 404 for a merge patch of a missing object
   */
  static RecordedRequest forStore(
      RecordedRequest request, JsonNode patch, JsonNode current, RequestTarget target) {
    if (contentType(request).equals(JSON_PATCH)) {
      return request;
    }
    JsonNode operations = JsonDiff.asJson(current, apply(request, patch, current, target));
    return RequestBodies.copy(request,
        request.getHeaders().newBuilder().set("Content-Type", JSON_PATCH).build(),
        operations.toString().getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Applies a patch request to the stored object, as the server does before it checks and stores
   * the result.
   *
   * @param request the PATCH request
   * @param patch its parsed body
   * @param current the object as stored now, or null if there is none
   * @param target what the request addresses, for the not-found answer
   * @return the patched object (a new node; {@code current} is not changed)
   * @throws ApiError 415 for a missing or unsupported content type, 400 for a strategic merge
   *     patch directive or a JSON patch that does not apply, 404 for a missing object
   */
  static JsonNode apply(
      RecordedRequest request, JsonNode patch, JsonNode current, RequestTarget target) {
    String type = contentType(request);
    if (current == null) {
      throw ApiError.objectNotFound(target.resource(), target.name());
    }
    if (type.equals(JSON_PATCH)) {
      try {
        return JsonPatch.apply(patch, current.deepCopy());
      } catch (RuntimeException e) {
        throw new ApiError(400, "BadRequest", "the JSON patch does not apply: " + e.getMessage());
      }
    }
    if (type.equals(STRATEGIC_MERGE_PATCH)) {
      rejectDirectives(patch, "");
    }
    return MergePatch.apply(current, patch);
  }

  /**
   * Checks that a patch request names a format the server accepts, as the server does before it
   * reads the stored object.
   *
   * @param request the PATCH request
   * @throws ApiError 415 for a missing or unsupported content type
   */
  static void checkContentType(RecordedRequest request) {
    contentType(request);
  }

  /** The patch's media type, checked to be one the server accepts. */
  private static String contentType(RecordedRequest request) {
    String header = request.getHeader("Content-Type");
    String type = header == null ? "" : header.split(";", -1)[0].trim().toLowerCase(Locale.ROOT);
    if (!List.of(JSON_PATCH, MERGE_PATCH, STRATEGIC_MERGE_PATCH).contains(type)) {
      throw new ApiError(415, "UnsupportedMediaType",
          "the body of the request was in an unknown format - accepted media types include: "
              + String.join(", ", List.of(JSON_PATCH, MERGE_PATCH, STRATEGIC_MERGE_PATCH))
              + " (Content-Type was \"" + (header == null ? "" : header) + "\")");
    }
    return type;
  }

  private static void rejectDirectives(JsonNode node, String path) {
    if (node.isObject()) {
      for (Map.Entry<String, JsonNode> field : node.properties()) {
        String fieldPath = path.isEmpty() ? field.getKey() : path + "." + field.getKey();
        if (field.getKey().startsWith("$")) {
          throw new ApiError(400, "BadRequest", "strategic merge patch directive \""
              + field.getKey() + "\" at \"" + fieldPath + "\" is not supported by the in-memory"
              + " API server; send a JSON merge patch or a JSON patch instead");
        }
        rejectDirectives(field.getValue(), fieldPath);
      }
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        rejectDirectives(node.get(i), path + "[" + i + "]");
      }
    }
  }
}
