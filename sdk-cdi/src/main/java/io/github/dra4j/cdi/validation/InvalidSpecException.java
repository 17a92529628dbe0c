package io.github.dra4j.cdi.validation;

import java.util.List;
import java.util.stream.Collectors;

/** A spec breaks validation rules; lists every problem with its file, device and field. */
public final class InvalidSpecException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /** Where the spec comes from. */
  private final String source;
  private final transient List<SpecProblem> problems;

  /**
   * Creates the exception.
   *
   * @param source the spec file, or another description of where the spec comes from
   * @param problems the problems, at least one, in the library's check order
   */
  public InvalidSpecException(String source, List<SpecProblem> problems) {
    super("invalid CDI Spec " + source + ": "
        + problems.stream().map(SpecProblem::toString).collect(Collectors.joining("; ")));
    this.source = source;
    this.problems = List.copyOf(problems);
  }

  /**
   * Returns where the spec comes from.
   *
   * @return e.g. the file path
   */
  public String source() {
    return source;
  }

  /**
   * Returns the problems; the first is the one the reference library reports.
   *
   * @return the problems
   */
  public List<SpecProblem> problems() {
    return problems;
  }
}
