package io.github.dra4j.resourceslice;

import java.util.List;

/**
 * A pool the controller refuses to publish because it breaks the controller's consistency rules
 * or the API server would refuse one of its slices; reported through the {@link ErrorHandler} with
 * message {@code pool validation failed}. The pool's current slices are left as they are; other
 * pools still publish. A consistency violation has the Go controller's text (e.g. {@code found
 * duplicate device "d" in pool "p"}); a slice the server would refuse is reported with the
 * slice's index and the server's line for each refused field (e.g. {@code pool "p", slice #0:
 * spec.devices[0].name: Invalid value: "GPU-0": a lowercase RFC 1123 label must consist of
 * ...}). A single violation is the whole message; several are joined with {@code "; "}.
 */
public final class PoolValidationException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** The name of the pool that was not published. */
  private final String poolName;

  /** One message per violation, in check order; never empty. */
  private final List<String> violations;

  /**
   * Creates the exception.
   *
   * @param poolName the invalid pool
   * @param violations one message per violation, at least one
   */
  public PoolValidationException(String poolName, List<String> violations) {
    super(String.join("; ", violations));
    if (violations.isEmpty()) {
      throw new IllegalArgumentException("a pool validation error needs at least one violation");
    }
    this.poolName = poolName;
    this.violations = List.copyOf(violations);
  }

  /**
   * Returns the pool name.
   *
   * @return the pool
   */
  public String poolName() {
    return poolName;
  }

  /**
   * Returns the violations.
   *
   * @return one message per violation, in check order
   */
  public List<String> violations() {
    return violations;
  }
}
