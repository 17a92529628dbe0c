package io.github.dra4j.cdi.name;

/**
 * A CDI name (vendor, class, kind, device name, qualified device name or a file-name ID) broke
 * the naming rules. The message names the field and the rejected value.
 */
public final class InvalidNameException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /** Which name was checked. */
  private final String field;

  /** The rejected value. */
  private final String value;

  /**
   * Creates the exception.
   *
   * @param field which name was checked, e.g. {@code vendor} or {@code kind}
   * @param value the rejected value
   * @param reason why it was rejected
   */
  public InvalidNameException(String field, String value, String reason) {
    super(field + " \"" + printable(value) + "\": " + reason);
    this.field = field;
    this.value = value;
  }

  /** Shows control characters (NUL, newline) as {@code \\uXXXX} so messages stay one line. */
  private static String printable(String value) {
    if (value == null) {
      return "null";
    }
    StringBuilder out = new StringBuilder(value.length());
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (Character.isISOControl(c)) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  /**
   * Returns which name was checked.
   *
   * @return the field, e.g. {@code vendor}
   */
  public String field() {
    return field;
  }

  /**
   * Returns the rejected value.
   *
   * @return the value as given
   */
  public String value() {
    return value;
  }
}
