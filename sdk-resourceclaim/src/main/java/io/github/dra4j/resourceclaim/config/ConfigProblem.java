package io.github.dra4j.resourceclaim.config;

import java.util.Objects;

/**
 * One thing wrong with a device configuration: where, as a field path, and what.
 *
 * @param path the field path, such as {@code parameters.sharing.strategy} or {@code
 *     status.allocation.devices.config[2]}; empty when the problem belongs to no single field
 * @param message what is wrong, naming the offending value where there is one
 */
public record ConfigProblem(String path, String message) {

  /**
   * Rejects nulls.
   *
   * @param path not null; may be empty
   * @param message not null
   * @throws NullPointerException naming the null component
   */
  public ConfigProblem {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(message, "message");
  }

  /**
   * A problem at a path, for {@link DeviceConfig#validate()}: the path is relative to the
   * configuration's {@code parameters} object.
   *
   * @param path {@code interval}, {@code sharing.strategy}, {@code devices[0]}; empty for the
   *     object as a whole
   * @param message what is wrong
   * @return the problem
   */
  public static ConfigProblem of(String path, String message) {
    return new ConfigProblem(path, message);
  }

  /**
   * The same problem seen from an enclosing object: the path is prefixed with {@code prefix}.
   *
   * @param prefix the path of the object this problem's path is relative to, such as {@code
   *     parameters}
   * @return {@code prefix.path}, {@code prefix[i]...} for a path starting with an index, or
   *     {@code prefix} for an empty path
   */
  public ConfigProblem under(String prefix) {
    if (prefix.isEmpty()) {
      return this;
    }
    if (path.isEmpty()) {
      return new ConfigProblem(prefix, message);
    }
    return new ConfigProblem(path.startsWith("[") ? prefix + path : prefix + "." + path, message);
  }

  /**
   * The problem as a message line.
   *
   * @return {@code <path>: <message>}, or the message alone for an empty path
   */
  @Override
  public String toString() {
    return path.isEmpty() ? message : path + ": " + message;
  }
}
