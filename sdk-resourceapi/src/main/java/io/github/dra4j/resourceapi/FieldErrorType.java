package io.github.dra4j.resourceapi;

/**
 * Why a field was refused, as the API server classifies it. Each type has the machine-readable
 * {@link #reason() cause type} that a 422 answer carries in {@code details.causes[].reason}, and
 * the {@link #text() words} that start the error's message ({@code Required value}, {@code
 * Invalid value}, ...).
 */
public enum FieldErrorType {
  /** A value that refers to something that does not exist. */
  NOT_FOUND("FieldValueNotFound", "Not found"),
  /** A value that must be given (an empty string, a null or an empty list). */
  REQUIRED("FieldValueRequired", "Required value"),
  /** A value that must be unique and is not. */
  DUPLICATE("FieldValueDuplicate", "Duplicate value"),
  /** A malformed value. */
  INVALID("FieldValueInvalid", "Invalid value"),
  /** A value outside an enumeration. */
  NOT_SUPPORTED("FieldValueNotSupported", "Unsupported value"),
  /** A well-formed value that is not allowed here (or a field that may not be set). */
  FORBIDDEN("FieldValueForbidden", "Forbidden"),
  /** A value longer than allowed; the message does not repeat the value. */
  TOO_LONG("FieldValueTooLong", "Too long"),
  /** A list or map with more items than allowed. */
  TOO_MANY("FieldValueTooMany", "Too many"),
  /** A failure of the check itself rather than of the value. */
  INTERNAL("InternalError", "Internal error"),
  /** A value of the wrong type for its field. */
  TYPE_INVALID("FieldValueTypeInvalid", "Invalid value");

  private final String reason;
  private final String text;

  FieldErrorType(String reason, String text) {
    this.reason = reason;
    this.text = text;
  }

  /**
   * Returns the cause type of a 422 answer.
   *
   * @return e.g. {@code FieldValueRequired}
   */
  public String reason() {
    return reason;
  }

  /**
   * Returns the words the error's message starts with.
   *
   * @return e.g. {@code Required value}
   */
  public String text() {
    return text;
  }

  /**
   * Whether the message shows the refused value after the type's words. The API server leaves it
   * out for required, forbidden, too-long and internal errors.
   *
   * @return true if the value is part of the message
   */
  public boolean showsValue() {
    return this != REQUIRED && this != FORBIDDEN && this != TOO_LONG && this != INTERNAL;
  }
}
