package io.github.dra4j.resourceclaim.config;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A device configuration, or the set of configurations of a claim, is not acceptable. Carries
 * every problem found, not only the first, so that an admission webhook can deny a request with
 * all of them at once and a kubelet plugin can report all of them in one prepare error.
 */
public class ConfigException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  /** The problems, in the order they were found. */
  private final transient List<ConfigProblem> problems;

  /**
   * An exception for one or more problems.
   *
   * @param problems not empty; copied
   * @throws IllegalArgumentException if {@code problems} is empty
   */
  public ConfigException(List<ConfigProblem> problems) {
    super(message(problems));
    this.problems = List.copyOf(problems);
  }

  /**
   * An exception for a single problem.
   *
   * @param path the field path
   * @param message what is wrong
   */
  public ConfigException(String path, String message) {
    this(List.of(new ConfigProblem(path, message)));
  }

  private static String message(List<ConfigProblem> problems) {
    if (problems.isEmpty()) {
      throw new IllegalArgumentException("a ConfigException needs at least one problem");
    }
    return problems.stream().map(ConfigProblem::toString).collect(Collectors.joining("; "));
  }

  /**
   * Every problem found.
   *
   * @return the problems, not empty, in the order they were found
   */
  public List<ConfigProblem> problems() {
    return problems;
  }

  /**
   * The same problems seen from an enclosing object.
   *
   * @param prefix the path to put in front of every problem's path
   * @return a new exception whose problems are {@link ConfigProblem#under(String) under} {@code
   *     prefix}
   */
  public ConfigException under(String prefix) {
    return new ConfigException(problems.stream().map(p -> p.under(prefix)).toList());
  }
}
