package io.github.dra4j.testing.apiserver.internal.dispatch;

import io.fabric8.mockwebserver.http.MockResponse;
import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.testing.apiserver.GroupVersionResource;
import java.util.List;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
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

  /** The {@code Status.details} of a 422 answer, or null. */
  private transient Details details;

  /** The warnings that arose before the error, sent as {@code Warning} headers. */
  private transient List<String> warnings = List.of();

  /** What a 422 answer's {@code details} name: the object and one cause per refused field. */
  private record Details(String name, String group, String kind, List<FieldError> causes) {}

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
   * The answer for a write based on an old copy of the object (its resourceVersion is not the
   * stored one), with the real server's message.
   *
   * @param resource the resource
   * @param name the object name
   * @return a 409 error
   */
  public static ApiError modified(GroupVersionResource resource, String name) {
    return conflict(resource, name, "the object has been modified; please apply your changes"
        + " to the latest version and try again");
  }

  /**
   * The answer for an object that fails validation, as kube-apiserver words it: 422 {@code
   * Invalid}, the message {@code <Kind>.<group> "<name>" is invalid: <errors>} (one error as it
   * is, several in brackets, a repeated line once), and {@code details} with the group, kind, name
   * and one cause per error (its type as the reason, its message without the field, its field).
   *
   * @param kind the object's kind
   * @param group the kind's API group, {@code ""} for the core group
   * @param name the object name ({@code ""} if it has none)
   * @param errors the refused fields, at least one
   * @return a 422 error
   */
  public static ApiError invalid(String kind, String group, String name, List<FieldError> errors) {
    String qualifiedKind = group.isEmpty() ? kind : kind + "." + group;
    ApiError error = new ApiError(
        422, "Invalid", qualifiedKind + " \"" + name + "\" is invalid: " + FieldError.join(errors));
    error.details = new Details(name, group, kind, List.copyOf(errors));
    return error;
  }

  /**
   * The answer for request options that fail validation ({@code dryRun}, {@code fieldValidation}),
   * as kube-apiserver words it: 422 with the options' kind in the {@code meta.k8s.io} group and no
   * name.
   *
   * @param optionsKind {@code CreateOptions}, {@code UpdateOptions} or {@code PatchOptions}
   * @param errors the refused options
   * @return a 422 error
   */
  public static ApiError invalidOptions(String optionsKind, List<FieldError> errors) {
    return invalid(optionsKind, "meta.k8s.io", "", errors);
  }

  /**
   * Adds the warnings that arose while the request was handled before it failed; a real server
   * sends them with the error.
   *
   * @param arisen the warnings, in order
   * @return this error
   */
  public ApiError withWarnings(List<String> arisen) {
    this.warnings = List.copyOf(arisen);
    return this;
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
    if (details != null) {
      ObjectNode detailsNode = status.putObject("details");
      if (!details.name().isEmpty()) {
        detailsNode.put("name", details.name());
      }
      if (!details.group().isEmpty()) {
        detailsNode.put("group", details.group());
      }
      detailsNode.put("kind", details.kind());
      ArrayNode causes = detailsNode.putArray("causes");
      for (FieldError error : details.causes()) {
        causes.addObject().put("reason", error.type().reason()).put("message", error.body())
            .put("field", error.field());
      }
    }
    status.put("code", code);
    return StoreAnswers.withWarnings(new MockResponse()
        .setResponseCode(code)
        .setHeader("Content-Type", AcceptHeader.JSON)
        .setBody(mapper.writeValueAsString(status)), warnings);
  }
}
