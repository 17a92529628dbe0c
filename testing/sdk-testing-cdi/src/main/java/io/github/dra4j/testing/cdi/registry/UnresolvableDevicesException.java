package io.github.dra4j.testing.cdi.registry;

import java.util.List;

/**
 * Some requested device names are not in the registry (unknown, in an invalid file, or in
 * conflict). A runtime then applies nothing and fails the container.
 */
public final class UnresolvableDevicesException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /** The names that did not resolve (an immutable list). */
  @SuppressWarnings("serial")
  private final List<String> names;

  /**
   * Creates the exception.
   *
   * @param names the names that did not resolve, in request order
   */
  public UnresolvableDevicesException(List<String> names) {
    super("unresolvable CDI devices " + String.join(", ", names));
    this.names = List.copyOf(names);
  }

  /**
   * Returns the names that did not resolve.
   *
   * @return the names
   */
  public List<String> names() {
    return names;
  }
}
