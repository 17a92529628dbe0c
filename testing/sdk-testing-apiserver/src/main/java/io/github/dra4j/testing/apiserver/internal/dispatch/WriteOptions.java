package io.github.dra4j.testing.apiserver.internal.dispatch;

import io.github.dra4j.core.name.GoStrings;
import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.FieldErrorType;
import io.github.dra4j.testing.apiserver.ApiVerb;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.json.JsonMapper;

/**
 * The query options of a write or delete as kube-apiserver checks them before it reads the body:
 * {@code dryRun} (only {@code All}) and, for writes, {@code fieldValidation} ({@code Ignore},
 * {@code Warn}, {@code Strict} or empty). A bad value is refused with 422 {@code Invalid} on the options kind ({@code
 * CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ...}). Immutable.
 *
 * @param dryRun whether the write is to be checked without being stored
 * @param fieldValidation the directive for unknown fields: Ignore, Warn (the default) or Strict
 */
record WriteOptions(boolean dryRun, String fieldValidation) {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  /**
   * Reads and checks the options of a write.
   *
   * @param target the request
   * @return the options
   * @throws ApiError 422 naming each bad option
   */
  static WriteOptions of(RequestTarget target) {
    List<FieldError> errors = new ArrayList<>();
    String dryRun = target.queryParameter("dryRun");
    if (dryRun != null && !dryRun.equals("All")) {
      errors.add(new FieldError(FieldErrorType.NOT_SUPPORTED, "dryRun",
          JSON.writeValueAsString(List.of(dryRun)), // a []string prints as JSON
          "supported values: \"All\""));
    }
    String fieldValidation = target.queryParameter("fieldValidation");
    if (fieldValidation == null) {
      fieldValidation = "";
    }
    if (target.verb() != ApiVerb.DELETE
        && !List.of("", "Ignore", "Warn", "Strict").contains(fieldValidation)) {
      errors.add(new FieldError(FieldErrorType.NOT_SUPPORTED, "fieldValidation",
          GoStrings.quote(fieldValidation),
          "supported values: \"\", \"Ignore\", \"Strict\", \"Warn\""));
    }
    if (!errors.isEmpty()) {
      throw ApiError.invalidOptions(optionsKind(target.verb()), errors);
    }
    return new WriteOptions(dryRun != null, fieldValidation.isEmpty() ? "Warn" : fieldValidation);
  }

  private static String optionsKind(ApiVerb verb) {
    return switch (verb) {
      case CREATE -> "CreateOptions";
      case PATCH -> "PatchOptions";
      case DELETE -> "DeleteOptions";
      default -> "UpdateOptions";
    };
  }
}
