package io.github.dra4j.testing.apiserver.internal.dispatch;

import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.nio.charset.StandardCharsets;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads request bodies as JSON without consuming them (the fabric8 store reads them again) and
 * rewrites them for the store. Immutable.
 */
final class RequestBodies {

  private final JsonMapper mapper;

  RequestBodies(JsonMapper mapper) {
    this.mapper = mapper;
  }

  /**
   * Parses a body that must be a JSON object.
   *
   * @throws ApiError 400 if it is not JSON or not an object
   */
  ObjectNode object(RecordedRequest request) {
    JsonNode node = json(request);
    if (!(node instanceof ObjectNode object)) {
      throw new ApiError(400, "BadRequest", "request body is not a JSON object");
    }
    return object;
  }

  /**
   * Parses a body as JSON (an empty body reads as a missing node).
   *
   * @throws ApiError 400 if it is not JSON
   */
  JsonNode json(RecordedRequest request) {
    return parse(text(request));
  }

  /**
   * Parses JSON text of a request (null reads as a missing node).
   *
   * @throws ApiError 400 if it is not JSON
   */
  JsonNode parse(String text) {
    try {
      return mapper.readTree(text == null ? "" : text);
    } catch (JacksonException e) {
      throw new ApiError(400, "BadRequest",
          "invalid JSON in request body: " + e.getOriginalMessage());
    }
  }

  /** Decodes a body as UTF-8, or null if there is none. */
  static String text(RecordedRequest request) {
    Buffer body = request.getBody();
    return body == null ? null : new String(body.getBytes(), StandardCharsets.UTF_8);
  }

  /** Copies a request with another body. */
  RecordedRequest withBody(RecordedRequest request, ObjectNode body) {
    return copy(request, request.getHeaders(), mapper.writeValueAsBytes(body));
  }

  /** Copies a request with other headers and body. */
  static RecordedRequest copy(RecordedRequest request, Headers headers, byte[] body) {
    return copy(request, headers, body, request.getPath(), request.method());
  }

  /** Copies a request with other headers, body, path and method. */
  static RecordedRequest copy(RecordedRequest request, Headers headers, byte[] body, String path,
      HttpMethod method) {
    return new RecordedRequest(request.getHttpVersion(), method, path, headers, new Buffer(body));
  }
}
