package io.github.dra4j.testing.apiserver.internal.dispatch;

import io.fabric8.mockwebserver.http.MockResponse;
import io.github.dra4j.core.name.GoStrings;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Makes the answers of the fabric8 store look like a real API server's: every answer gets a
 * {@code Content-Type}, an accepted patch 200 rather than 202, a missing object a {@code Status},
 * and an error the reason its code has on a real server (the store says {@code Invalid} for any
 * code). Immutable; it changes the responses handed to it, which belong to the request at hand.
 */
final class StoreAnswers {

  private final JsonMapper mapper;

  StoreAnswers(JsonMapper mapper) {
    this.mapper = mapper;
  }

  /** Adds the content type and corrects the reason of an error {@code Status}. */
  MockResponse normalized(MockResponse response) {
    if (response.getHeaders().get("Content-Type") == null) {
      response.setHeader("Content-Type", AcceptHeader.JSON);
    }
    int code = response.code();
    if (code >= 400 && code != 422 && response.getBody() != null) {
      JsonNode body;
      try {
        body = mapper.readTree(response.getBody().getBytes());
      } catch (JacksonException e) {
        body = null;
      }
      if (body instanceof ObjectNode status && "Status".equals(status.path("kind").asString(""))
          && "Invalid".equals(status.path("reason").asString(""))) {
        status.put("reason", ApiError.reasonFor(code));
        response.setBody(mapper.writeValueAsString(status));
      }
    }
    return response;
  }

  /**
   * Answers with a JSON object.
   *
   * @param code the HTTP status
   * @param body the object
   * @return the response, with its content type
   */
  MockResponse json(int code, ObjectNode body) {
    return new MockResponse()
        .setResponseCode(code)
        .setHeader("Content-Type", AcceptHeader.JSON)
        .setBody(mapper.writeValueAsString(body));
  }

  /** Answers an accepted update or patch with 200, as a real server does (the store says 202). */
  static MockResponse updated(MockResponse response) {
    return response.code() == 202 ? response.setResponseCode(200) : response;
  }

  /** Replaces the store's empty 404 with the real server's {@code Status}. */
  MockResponse notFoundWithStatus(MockResponse response, RequestTarget target) {
    if (response.code() == 404
        && (response.getBody() == null || response.getBody().size() == 0)) {
      return ApiError.objectNotFound(target.resource(), target.name()).toResponse(mapper);
    }
    return response;
  }

  /**
   * Adds one {@code Warning} header per warning to an answer, as the server writes them: code
   * 299, agent {@code -}, the text quoted, a text repeated left out.
   */
  static MockResponse withWarnings(MockResponse response, List<String> warnings) {
    warnings.stream().distinct().forEach(warning -> response.addHeader("Warning",
        "299 - " + GoStrings.quote(warning)));
    return response;
  }
}
