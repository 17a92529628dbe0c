package io.github.dra4j.resourceapi;

import java.util.List;
import java.util.Objects;

/**
 * One refused field, as kube-apiserver reports it in a 422 answer: the type, the field's path in
 * the object ({@code spec.devices[3].name}, {@code spec.devices[0].attributes[model]}), the
 * refused value as the server prints it, and a detail. {@link #toString()} is the line the server
 * prints for it, e.g. {@code spec.devices[0].name: Invalid value: "GPU-0": a lowercase RFC 1123
 * label must consist of ...}. Immutable.
 *
 * @param type why the field was refused
 * @param field the field's path; {@code <nil>} for an error about no particular field
 * @param value the refused value as the server prints it (strings quoted, numbers bare), or null
 *     where the message does not show one
 * @param detail the explanation, or empty
 */
public record FieldError(FieldErrorType type, String field, String value, String detail) {

  /**
   * Checks the parts.
   *
   * @param type why the field was refused, not null
   * @param field the field's path, not null
   * @param value the printed value, or null
   * @param detail the explanation, not null (empty for none)
   */
  public FieldError {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(detail, "detail");
  }

  /**
   * Returns the message without the field path, as in {@code details.causes[].message} of a 422
   * answer: the type's words, the value where the type shows one, and the detail.
   *
   * @return e.g. {@code Invalid value: "GPU-0": a lowercase RFC 1123 label must ...}
   */
  public String body() {
    StringBuilder text = new StringBuilder(type.text());
    if (type.showsValue() && value != null) {
      text.append(": ").append(value);
    }
    if (!detail.isEmpty()) {
      text.append(": ").append(detail);
    }
    return text.toString();
  }

  /**
   * Returns the line the API server prints for this error.
   *
   * @return {@code <field>: <body>}
   */
  @Override
  public String toString() {
    return field + ": " + body();
  }

  /**
   * Joins errors as the API server lists them in a message: one error as it is, several in
   * brackets separated by commas, a line that repeats an earlier one left out.
   *
   * @param errors the errors, at least one
   * @return e.g. {@code [spec.driver: Required value, spec.pool.name: Required value]}
   */
  public static String join(List<FieldError> errors) {
    List<String> lines = errors.stream().map(FieldError::toString).distinct().toList();
    return lines.size() == 1 ? lines.get(0) : "[" + String.join(", ", lines) + "]";
  }
}
