package io.github.dra4j.resourceapi.internal.field;

import io.github.dra4j.core.name.NameProblem;
import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.FieldErrorType;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Makes {@link FieldError}s with the API server's wording for each type, so that every rule words
 * its errors alike. Stateless.
 */
public final class Errors {

  private Errors() {}

  /**
   * A value that must be given.
   *
   * @param path the field
   * @param detail why, or empty
   * @return {@code <path>: Required value[: detail]}
   */
  public static FieldError required(FieldPath path, String detail) {
    return new FieldError(FieldErrorType.REQUIRED, path.toString(), null, detail);
  }

  /**
   * A malformed value.
   *
   * @param path the field
   * @param value the value (printed with {@link GoValues#print})
   * @param detail why
   * @return {@code <path>: Invalid value: <value>: detail}
   */
  public static FieldError invalid(FieldPath path, Object value, String detail) {
    return new FieldError(FieldErrorType.INVALID, path.toString(), GoValues.print(value), detail);
  }

  /**
   * A value outside an enumeration.
   *
   * @param path the field
   * @param value the value
   * @param supported the allowed values, in the order the server lists them
   * @return {@code <path>: Unsupported value: "x": supported values: "a", "b"}
   */
  public static FieldError notSupported(FieldPath path, Object value, List<String> supported) {
    String detail = supported.isEmpty() ? "" : "supported values: "
        + supported.stream().map(GoValues::quote).collect(Collectors.joining(", "));
    return new FieldError(FieldErrorType.NOT_SUPPORTED, path.toString(), GoValues.print(value),
        detail);
  }

  /**
   * A value that must be unique.
   *
   * @param path the field (the later of the two items)
   * @param value the repeated value
   * @return {@code <path>: Duplicate value: <value>}
   */
  public static FieldError duplicate(FieldPath path, Object value) {
    return new FieldError(FieldErrorType.DUPLICATE, path.toString(), GoValues.print(value), "");
  }

  /**
   * A value that is not allowed here.
   *
   * @param path the field
   * @param detail why
   * @return {@code <path>: Forbidden: detail}
   */
  public static FieldError forbidden(FieldPath path, String detail) {
    return new FieldError(FieldErrorType.FORBIDDEN, path.toString(), null, detail);
  }

  /**
   * A value longer than allowed.
   *
   * @param path the field
   * @param maxLength the limit in bytes, or negative for none named
   * @return {@code <path>: Too long: may not be more than <max> bytes}
   */
  public static FieldError tooLong(FieldPath path, int maxLength) {
    String detail = maxLength < 0 ? "value is too long"
        : "may not be more than " + maxLength + (maxLength == 1 ? " byte" : " bytes");
    return new FieldError(FieldErrorType.TOO_LONG, path.toString(), null, detail);
  }

  /**
   * A list or map with too many items.
   *
   * @param path the field
   * @param actual how many there are, or negative to leave it out
   * @param max the limit, or negative for none named
   * @return {@code <path>: Too many: <actual>: must have at most <max> items}
   */
  public static FieldError tooMany(FieldPath path, int actual, int max) {
    String detail = max < 0 ? "has too many items"
        : "must have at most " + max + (max == 1 ? " item" : " items");
    return new FieldError(FieldErrorType.TOO_MANY, path.toString(),
        actual < 0 ? null : Integer.toString(actual), detail);
  }

  /**
   * A value that names something that does not exist.
   *
   * @param path the field
   * @param value the value
   * @return {@code <path>: Not found: <value>}
   */
  public static FieldError notFound(FieldPath path, Object value) {
    return new FieldError(FieldErrorType.NOT_FOUND, path.toString(), GoValues.print(value), "");
  }

  /**
   * Places the problems a name rule found at a field, as the server reports them there.
   *
   * @param problems the problems, in the rule's order
   * @param path the field
   * @return one error per problem
   */
  public static List<FieldError> at(List<NameProblem> problems, FieldPath path) {
    if (problems.isEmpty()) {
      return List.of();
    }
    List<FieldError> errors = new ArrayList<>(problems.size());
    for (NameProblem problem : problems) {
      errors.add(switch (problem.type()) {
        case REQUIRED -> required(path, "");
        case TOO_LONG -> new FieldError(FieldErrorType.TOO_LONG, path.toString(), null,
            problem.detail());
        case INVALID -> invalid(path, problem.value(), problem.detail());
      });
    }
    return errors;
  }

  /**
   * A failure of the check itself.
   *
   * @param path the field
   * @param detail the failure
   * @return {@code <path>: Internal error: detail}
   */
  public static FieldError internal(FieldPath path, String detail) {
    return new FieldError(FieldErrorType.INTERNAL, path.toString(), null, detail);
  }
}
