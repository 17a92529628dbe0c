package io.github.dra4j.resourceslice;

import java.util.List;

/**
 * A pool the controller refuses to publish because it breaks API rules; reported through the
 * {@link ErrorHandler} with message {@code pool validation failed}. The pool's current slices are
 * left as they are; other pools still publish. Each violation names the pool and, where relevant,
 * the slice, device and field with the offending value. A single violation is the whole message
 * (for the four consistency checks of the Go controller the text is identical to Go's, e.g. {@code
 * found duplicate device "d" in pool "p"}); several are joined with {@code "; "}.
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
