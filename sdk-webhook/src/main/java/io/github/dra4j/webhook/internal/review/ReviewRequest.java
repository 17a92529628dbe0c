package io.github.dra4j.webhook.internal.review;

import io.github.dra4j.webhook.InvalidAdmissionReviewException;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.MissingNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The parts of an {@code admission.k8s.io/v1} AdmissionReview request the webhook reads, taken
 * from its JSON. Immutable.
 *
 * <p>The review is read as a stream and only what the webhook needs is kept: the request's
 * fields, and of the object its {@code metadata.name}, {@code metadata.generateName} and {@code
 * spec}; everything else ({@code oldObject}, {@code status}, managed fields) is skipped unread.
 * The body may nest at most {@value #MAX_DEPTH} levels (a configuration's parameters start about
 * ten levels down) and the kept {@code spec} may hold at most {@value #MAX_VALUES} JSON values,
 * so that neither a deep nor a large body can exhaust a thread's stack or the heap; beyond
 * either, the body is no review the webhook answers (400).
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

  /** How deep a review may nest, in objects and arrays. */
  public static final int MAX_DEPTH = 100;

  /** How many JSON values the object's {@code spec} may hold. */
  public static final int MAX_VALUES = 100_000;

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** Reads reviews; duplicate fields are refused rather than silently resolved. */
  private static final JsonMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
      .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH)
          .build())
      .build())
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .build();

  /**
   * Parses a review.
   *
   * @param body the request body, UTF-8 JSON
   * @return the request
   * @throws InvalidAdmissionReviewException naming the field and value that make it no review
   */
  public static ReviewRequest parse(byte[] body) {
    ObjectNode review;
    try (JsonParser parser = MAPPER.createParser(body)) {
      review = read(parser);
      if (review == null) {
        throw new InvalidAdmissionReviewException("body is not a JSON object");
      }
      if (parser.nextToken() != null) {
        throw new InvalidAdmissionReviewException("body is not JSON: unexpected content after "
            + "the review" + where(parser));
      }
    } catch (JacksonException e) {
      throw new InvalidAdmissionReviewException("body is not JSON: " + firstLine(e));
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
    JsonNode object = request.has("object") ? request.get("object") : MissingNode.getInstance();
    if ((operation.equals("CREATE") || operation.equals("UPDATE")) && !object.isObject()) {
      throw new InvalidAdmissionReviewException(
          "request.object: want the object for a " + operation);
    }
    return new ReviewRequest(uid, orEmpty(text(gvk, "group")), text(gvk, "version"),
        text(gvk, "kind"), orEmpty(text(request, "subResource")), operation,
        orEmpty(text(request, "namespace")), orEmpty(text(request, "name")), object);
  }

  /**
   * Reads the top level: its strings, and the request; anything else is skipped.
   *
   * @return the kept parts as a tree, or null if the body is no JSON object
   */
  private static ObjectNode read(JsonParser parser) {
    if (parser.nextToken() != JsonToken.START_OBJECT) {
      return null;
    }
    ObjectNode review = NODES.objectNode();
    BoundedTree tree = new BoundedTree(MAX_VALUES);
    while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
      String name = parser.currentName();
      JsonToken value = parser.nextToken();
      if (name.equals("request") && value == JsonToken.START_OBJECT) {
        review.set(name, readRequest(parser, tree));
      } else {
        keepString(parser, review, name);
      }
    }
    return review;
  }

  private static ObjectNode readRequest(JsonParser parser, BoundedTree tree) {
    ObjectNode request = NODES.objectNode();
    while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
      String name = parser.currentName();
      JsonToken value = parser.nextToken();
      if (name.equals("kind") && value == JsonToken.START_OBJECT) {
        ObjectNode gvk = request.putObject(name);
        while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
          String field = parser.currentName();
          parser.nextToken();
          keepString(parser, gvk, field);
        }
      } else if (name.equals("object") && value == JsonToken.START_OBJECT) {
        request.set(name, readObject(parser, tree));
      } else if (name.equals("object") && value == JsonToken.VALUE_NULL) {
        request.set(name, NODES.nullNode());
      } else {
        keepString(parser, request, name);
      }
    }
    return request;
  }

  /** The object's {@code metadata.name}, {@code metadata.generateName} and {@code spec}. */
  private static ObjectNode readObject(JsonParser parser, BoundedTree tree) {
    ObjectNode object = NODES.objectNode();
    while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
      String name = parser.currentName();
      JsonToken value = parser.nextToken();
      if (name.equals("spec")) {
        object.set(name, tree.read(parser, "request.object.spec"));
      } else if (name.equals("metadata") && value == JsonToken.START_OBJECT) {
        ObjectNode metadata = object.putObject(name);
        while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
          String field = parser.currentName();
          parser.nextToken();
          if (field.equals("name") || field.equals("generateName")) {
            keepString(parser, metadata, field);
          } else {
            parser.skipChildren();
          }
        }
      } else {
        parser.skipChildren();
      }
    }
    return object;
  }

  /** Keeps a string value; skips any other value, which then reads as missing. */
  private static void keepString(JsonParser parser, ObjectNode into, String name) {
    if (parser.currentToken() == JsonToken.VALUE_STRING) {
      into.put(name, parser.getString());
    } else {
      parser.skipChildren();
    }
  }

  private static String where(JsonParser parser) {
    var location = parser.currentLocation();
    return location == null ? "" : " (line " + location.getLineNr() + ", column "
        + location.getColumnNr() + ")";
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
