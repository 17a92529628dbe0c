package io.github.dra4j.testing.cdi.injection;

import java.util.List;

/**
 * An OCI hook as it appears in one of the {@code hooks} lists.
 *
 * @param path the executable
 * @param args argv including argv[0]
 * @param env the hook's environment
 * @param timeout seconds; null if not set
 */
public record OciHook(String path, List<String> args, List<String> env, Integer timeout) {

  /**
   * Copies the lists.
   *
   * @param path the executable
   * @param args argv including argv[0]
   * @param env the hook's environment
   * @param timeout seconds
   */
  public OciHook {
    args = List.copyOf(args);
    env = List.copyOf(env);
  }
}
