package io.github.dra4j.testing.apiserver.internal.dispatch;

import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * The patch formats the in-memory API server accepts, by {@code Content-Type}: JSON patch, JSON
 * merge patch, and strategic merge patch (what {@code kubectl patch} sends by default), which is
 * applied as a JSON merge patch. That is exact for the maps and scalars of a patch; a list is
 * replaced as a whole, where a real server merges lists that declare a patch merge key (such as a
 * claim's {@code status.reservedFor}), and the {@code $}-directives are refused (400). Server-side
 * apply is not supported; it and unknown formats answer 415 like a real server. Stateless.
 */
final class PatchTypes {

  private static final String JSON_PATCH = "application/json-patch+json";
  private static final String MERGE_PATCH = "application/merge-patch+json";
  private static final String STRATEGIC_MERGE_PATCH = "application/strategic-merge-patch+json";

  private PatchTypes() {}

  /**
   * Turns a patch request into one the fabric8 store applies: JSON patch and merge patch as they
   * are, strategic merge patch relabelled as merge patch.
   *
   * @param request the PATCH request
   * @param body its parsed body
   * @return the request to hand to the store
   * @throws ApiError 415 for a missing or unsupported content type, 400 for a strategic merge
   *     patch directive
   */
  static RecordedRequest forStore(RecordedRequest request, JsonNode body) {
    String header = request.getHeader("Content-Type");
    String type = header == null ? "" : header.split(";")[0].trim().toLowerCase(Locale.ROOT);
    switch (type) {
      case JSON_PATCH, MERGE_PATCH -> {
        return request;
      }
      case STRATEGIC_MERGE_PATCH -> {
        rejectDirectives(body, "");
        return new RecordedRequest(
            request.getHttpVersion(),
            request.method(),
            request.getPath(),
            request.getHeaders().newBuilder().set("Content-Type", MERGE_PATCH).build(),
            new Buffer(request.getBody() == null ? new byte[0] : request.getBody().getBytes()));
      }
      default -> throw new ApiError(415, "UnsupportedMediaType",
          "the body of the request was in an unknown format - accepted media types include: "
              + String.join(", ", List.of(JSON_PATCH, MERGE_PATCH, STRATEGIC_MERGE_PATCH))
              + " (Content-Type was \"" + (header == null ? "" : header) + "\")");
    }
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
