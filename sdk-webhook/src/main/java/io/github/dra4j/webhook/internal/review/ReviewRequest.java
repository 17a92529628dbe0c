package io.github.dra4j.webhook.internal.review;

import io.github.dra4j.webhook.InvalidAdmissionReviewException;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The parts of an {@code admission.k8s.io/v1} AdmissionReview request the webhook reads, taken
 * from its JSON. Immutable.
 *
 * @param uid the request's UID, echoed in the response
 * @param group the object's API group ({@code request.kind.group}), empty for the core group
 * @param version the object's API version ({@code request.kind.version})
 * @param kind the object's kind ({@code request.kind.kind})
 * @param subResource the subresource, empty for the object itself
 * @param operation CREATE, UPDATE, DELETE or CONNECT
 * @param namespace the object's namespace, empty if none
 * @param name the object's name, empty if not known yet (generateName)
 * @param object the new object; a missing node for DELETE and CONNECT
 */
public record ReviewRequest(String uid, String group, String version, String kind,
    String subResource, String operation, String namespace, String name, JsonNode object) {

  /** The API version of the only AdmissionReview form the webhook speaks. */
  public static final String API_VERSION = "admission.k8s.io/v1";

  /** The kind of an AdmissionReview. */
  public static final String KIND = "AdmissionReview";

  /** Reads reviews; duplicate fields are refused rather than silently resolved. */
  private static final JsonMapper MAPPER = JsonMapper.builder()
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .build();

  /**
   * Parses a review.
   *
   * @param body the request body, UTF-8 JSON
   * @return the request
   * @throws InvalidAdmissionReviewException naming the field and value that make it no review
   */
  public static ReviewRequest parse(byte[] body) {
    JsonNode review;
    try {
      review = MAPPER.readTree(body);
    } catch (JacksonException e) {
      throw new InvalidAdmissionReviewException("body is not JSON: " + firstLine(e));
    }
    if (review == null || !review.isObject()) {
      throw new InvalidAdmissionReviewException("body is not a JSON object");
    }
    String apiVersion = text(review, "apiVersion");
    String kind = text(review, "kind");
    if (!API_VERSION.equals(apiVersion) || !KIND.equals(kind)) {
      throw new InvalidAdmissionReviewException("apiVersion " + quote(apiVersion) + " and kind "
          + quote(kind) + " are not " + API_VERSION + " " + KIND);
    }
    JsonNode request = review.path("request");
    if (!request.isObject()) {
      throw new InvalidAdmissionReviewException("request: missing or not an object");
    }
    String uid = text(request, "uid");
    if (uid == null || uid.isEmpty()) {
      throw new InvalidAdmissionReviewException("request.uid: missing or empty, got "
          + quote(uid));
    }
    JsonNode gvk = request.path("kind");
    if (!gvk.isObject() || text(gvk, "kind") == null || text(gvk, "version") == null) {
      throw new InvalidAdmissionReviewException(
          "request.kind: want an object with version and kind");
    }
    String operation = text(request, "operation");
    if (operation == null) {
      throw new InvalidAdmissionReviewException("request.operation: missing or not a string");
    }
    JsonNode object = request.path("object");
    if ((operation.equals("CREATE") || operation.equals("UPDATE")) && !object.isObject()) {
      throw new InvalidAdmissionReviewException(
          "request.object: want the object for a " + operation);
    }
    return new ReviewRequest(uid, orEmpty(text(gvk, "group")), text(gvk, "version"),
        text(gvk, "kind"), orEmpty(text(request, "subResource")), operation,
        orEmpty(text(request, "namespace")), orEmpty(text(request, "name")), object);
  }

  /**
   * The object's group and version as in {@code apiVersion}.
   *
   * @return {@code group/version}, or the version alone for the core group
   */
  public String apiVersion() {
    return group.isEmpty() ? version : group + "/" + version;
  }

  /**
   * Names the object for messages.
   *
   * @return {@code namespace/name}, or as much of it as is known
   */
  public String objectName() {
    String shown = name.isEmpty() ? text(object.path("metadata"), "generateName") : name;
    shown = shown == null ? "" : shown;
    return namespace.isEmpty() ? shown : namespace + "/" + shown;
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node.path(field);
    return value.isString() ? value.asString() : null;
  }

  private static String orEmpty(String value) {
    return value == null ? "" : value;
  }

  private static String quote(String value) {
    return value == null ? "(none)" : "\"" + value + "\"";
  }

  private static String firstLine(JacksonException e) {
    String message = String.valueOf(e.getOriginalMessage());
    int newline = message.indexOf('\n');
    String where = e.getLocation() == null ? ""
        : " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr()
            + ")";
    return (newline < 0 ? message : message.substring(0, newline)) + where;
  }
}
