package io.github.dra4j.resourceapi.internal.field;

import java.util.Objects;

/**
 * The path of a field in an object, printed as the API server prints it: names joined by dots,
 * list indexes and map keys in brackets ({@code spec.devices[0].attributes[model]}). Map keys are
 * printed as they are, without quotes; an empty field name prints as {@code []}, as Go's
 * {@code field.Path} prints it. Immutable.
 */
public final class FieldPath {

  /** The path of no particular field, printed {@code <nil>}. */
  public static final FieldPath NONE = new FieldPath("<nil>", true);

  private final String text;
  private final boolean none;

  private FieldPath(String text, boolean none) {
    this.text = text;
    this.none = none;
  }

  /**
   * Starts a path at a top-level field.
   *
   * @param name e.g. {@code spec}
   * @param more further field names below it
   * @return the path
   */
  public static FieldPath root(String name, String... more) {
    FieldPath path = new FieldPath(Objects.requireNonNull(name, "name").isEmpty() ? "[]" : name,
        false);
    return more.length == 0 ? path : path.child(more);
  }

  /**
   * Descends into fields.
   *
   * @param names one or more field names
   * @return the longer path
   */
  public FieldPath child(String... names) {
    StringBuilder out = new StringBuilder(none ? "" : text);
    for (String name : names) {
      if (name.isEmpty()) {
        out.append("[]"); // Go prints an empty name as an empty subscript
        continue;
      }
      if (out.length() > 0) {
        out.append('.');
      }
      out.append(name);
    }
    return new FieldPath(out.toString(), false);
  }

  /**
   * Descends into a list item.
   *
   * @param index the item's index
   * @return e.g. {@code spec.devices[3]}
   */
  public FieldPath index(int index) {
    return new FieldPath((none ? "" : text) + "[" + index + "]", false);
  }

  /**
   * Descends into a map entry.
   *
   * @param key the key, printed without quotes
   * @return e.g. {@code spec.devices[0].attributes[model]}
   */
  public FieldPath key(String key) {
    return new FieldPath((none ? "" : text) + "[" + key + "]", false);
  }

  /**
   * Returns the printed path.
   *
   * @return e.g. {@code spec.devices[0].name}
   */
  @Override
  public String toString() {
    return text;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof FieldPath path && path.text.equals(text) && path.none == none;
  }

  @Override
  public int hashCode() {
    return text.hashCode();
  }
}
