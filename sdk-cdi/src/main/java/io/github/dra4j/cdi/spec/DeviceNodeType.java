package io.github.dra4j.cdi.spec;

import java.util.Optional;

/** The device node types a spec may declare, with their one-letter codes. */
public enum DeviceNodeType {
  /** {@code b}: block device. */
  BLOCK("b"),
  /** {@code c}: character device. */
  CHAR("c"),
  /** {@code u}: unbuffered character device. */
  UNBUFFERED_CHAR("u"),
  /** {@code p}: FIFO. */
  FIFO("p");

  private final String code;

  DeviceNodeType(String code) {
    this.code = code;
  }

  /**
   * Returns the code used in the spec's {@code type} field.
   *
   * @return {@code b}, {@code c}, {@code u} or {@code p}
   */
  public String code() {
    return code;
  }

  /**
   * Looks a type up by its code.
   *
   * @param code the {@code type} value
   * @return the type, or empty if the code is not one of the four
   */
  public static Optional<DeviceNodeType> fromCode(String code) {
    for (DeviceNodeType type : values()) {
      if (type.code.equals(code)) {
        return Optional.of(type);
      }
    }
    return Optional.empty();
  }
}
