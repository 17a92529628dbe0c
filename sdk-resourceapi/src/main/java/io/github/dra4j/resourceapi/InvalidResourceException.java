package io.github.dra4j.resourceapi;

import java.util.List;

/**
 * An object the API server would refuse with 422 {@code Invalid}. The message is the server's:
 * {@code ResourceSlice.resource.k8s.io "node-a-gpu" is invalid: spec.devices[0].name: Invalid
 * value: ...} (several errors in brackets). Immutable.
 */
public final class InvalidResourceException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  /** The kind of the refused object. */
  private final String kind;

  /** The name of the refused object, {@code ""} if it has none. */
  private final String name;

  /** The refused fields (not serialized). */
  private final transient List<FieldError> errors;

  /**
   * Creates the exception.
   *
   * @param kind the object's kind, e.g. {@code ResourceSlice}
   * @param name the object's name, {@code ""} if it has none
   * @param errors the refused fields, at least one
   */
  public InvalidResourceException(String kind, String name, List<FieldError> errors) {
    super(message(kind, name, errors));
    this.kind = kind;
    this.name = name;
    this.errors = List.copyOf(errors);
  }

  /**
   * Words the server's message: the qualified kind, the name, and the errors (one as it is,
   * several in brackets, a repeated line once).
   *
   * @param kind the kind in {@code resource.k8s.io}
   * @param name the object's name
   * @param errors the refused fields
   * @return e.g. {@code DeviceClass.resource.k8s.io "gpu" is invalid: spec.selectors[0]...}
   */
  public static String message(String kind, String name, List<FieldError> errors) {
    return kind + ".resource.k8s.io \"" + name + "\" is invalid: " + FieldError.join(errors);
  }

  /**
   * Returns the kind.
   *
   * @return e.g. {@code ResourceSlice}
   */
  public String kind() {
    return kind;
  }

  /**
   * Returns the object's name.
   *
   * @return the name, {@code ""} if it has none
   */
  public String name() {
    return name;
  }

  /**
   * Returns the refused fields.
   *
   * @return the errors, in the order the rules found them
   */
  public List<FieldError> errors() {
    return errors;
  }
}
