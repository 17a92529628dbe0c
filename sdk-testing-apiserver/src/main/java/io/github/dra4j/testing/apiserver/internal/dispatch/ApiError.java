package io.github.dra4j.testing.apiserver.internal.dispatch;

import io.fabric8.mockwebserver.http.MockResponse;
import io.github.dra4j.testing.apiserver.GroupVersionResource;
import java.util.List;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * An error answer of the API server: HTTP status, Kubernetes {@code reason} and message, sent as a
 * {@code Status} object like a real server's.
 */
public final class ApiError extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** HTTP status code of the answer. */
  private final int code;

  /** The {@code Status.reason} of the answer. */
  private final String reason;

  /**
   * Creates an error.
   *
   * @param code HTTP status code
   * @param reason the {@code Status.reason}, e.g. {@code NotFound}
   * @param message the {@code Status.message}
   */
  public ApiError(int code, String reason, String message) {
    super(message);
    this.code = code;
    this.reason = reason;
  }

  /**
   * Returns the HTTP status code.
   *
   * @return the code
   */
  public int code() {
    return code;
  }

  /**
   * Returns the {@code Status.reason}.
   *
   * @return the reason
   */
  public String reason() {
    return reason;
  }

  /**
   * Chooses the reason the API server uses for a status code.
   *
   * @param code an HTTP status code
   * @return e.g. {@code Conflict} for 409, {@code InternalError} for 500
   */
  public static String reasonFor(int code) {
    return switch (code) {
      case 400 -> "BadRequest";
      case 401 -> "Unauthorized";
      case 403 -> "Forbidden";
      case 404 -> "NotFound";
      case 405 -> "MethodNotAllowed";
      case 406 -> "NotAcceptable";
      case 409 -> "Conflict";
      case 410 -> "Expired";
      case 415 -> "UnsupportedMediaType";
      case 422 -> "Invalid";
      case 429 -> "TooManyRequests";
      case 503 -> "ServiceUnavailable";
      case 504 -> "Timeout";
      default -> code >= 500 ? "InternalError" : "Unknown";
    };
  }

  /**
   * The answer for a path the server does not serve (also used for disabled group-versions).
   *
   * @return a 404 error
   */
  public static ApiError pathNotFound() {
    return new ApiError(404, "NotFound", "the server could not find the requested resource");
  }

  /**
   * The answer for a missing object.
   *
   * @param resource the resource
   * @param name the object name
   * @return a 404 error with the real server's wording
   */
  public static ApiError objectNotFound(GroupVersionResource resource, String name) {
    return new ApiError(
        404, "NotFound", resource.qualifiedResource() + " \"" + name + "\" not found");
  }

  /**
   * The answer for creating an object whose name is taken.
   *
   * @param resource the resource
   * @param name the object name
   * @return a 409 error with the real server's wording
   */
  public static ApiError alreadyExists(GroupVersionResource resource, String name) {
    return new ApiError(
        409, "AlreadyExists", resource.qualifiedResource() + " \"" + name + "\" already exists");
  }

  /**
   * The answer for a write that lost an optimistic-concurrency race or failed a precondition.
   *
   * @param resource the resource
   * @param name the object name
   * @param detail why
   * @return a 409 error with the real server's wording
   */
  public static ApiError conflict(GroupVersionResource resource, String name, String detail) {
    return new ApiError(
        409,
        "Conflict",
        "Operation cannot be fulfilled on "
            + resource.qualifiedResource()
            + " \""
            + name
            + "\": "
            + detail);
  }

  /**
   * The answer for an object that fails validation.
   *
   * @param kind the object's kind
   * @param resource the resource
   * @param name the object name
   * @param causes one entry per violation, in the form {@code field: problem}
   * @return a 422 error with the real server's wording
   */
  public static ApiError invalid(
      String kind, GroupVersionResource resource, String name, List<String> causes) {
    String joined = causes.size() == 1 ? causes.get(0) : "[" + String.join(", ", causes) + "]";
    String qualifiedKind = resource.group().isEmpty() ? kind : kind + "." + resource.group();
    return new ApiError(
        422, "Invalid", qualifiedKind + " \"" + name + "\" is invalid: " + joined);
  }

  /**
   * Renders the error as a {@code Status} response.
   *
   * @param mapper the JSON mapper
   * @return the response
   */
  public MockResponse toResponse(JsonMapper mapper) {
    ObjectNode status = mapper.createObjectNode();
    status.put("kind", "Status").put("apiVersion", "v1");
    status.putObject("metadata");
    status.put("status", "Failure").put("message", getMessage()).put("reason", reason);
    status.put("code", code);
    return new MockResponse()
        .setResponseCode(code)
        .setHeader("Content-Type", AcceptHeader.JSON)
        .setBody(mapper.writeValueAsString(status));
  }
}
