package io.github.dra4j.cdi.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * An OCI hook the runtime runs for the container. The {@link Builder} checks every value when it
 * builds (a known hook name, an absolute path, {@code NAME=VALUE} environment entries, a timeout
 * above 0); the constructor does not, because it also holds hooks read from files.
 *
 * @param hookName when it runs: one of the {@link HookName} JSON names
 * @param path the executable (absolute)
 * @param args the full argv including argv[0]; may be empty
 * @param env the hook's environment as {@code NAME=VALUE}; may be empty
 * @param timeout seconds before the runtime kills the hook; null if not given
 */
@JsonPropertyOrder({"hookName", "path", "args", "env", "timeout"})
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record Hook(
    @JsonInclude(JsonInclude.Include.ALWAYS) String hookName,
    @JsonInclude(JsonInclude.Include.ALWAYS) String path,
    List<String> args,
    List<String> env,
    @JsonInclude(JsonInclude.Include.NON_NULL) Integer timeout) {

  /**
   * Copies the lists; null becomes empty.
   *
   * @param hookName when it runs: one of the {@link HookName} JSON names
   * @param path the executable (absolute)
   * @param args the full argv including argv[0]
   * @param env the hook's environment as {@code NAME=VALUE}
   * @param timeout seconds before the runtime kills the hook
   */
  public Hook {
    hookName = Copies.text(hookName);
    path = Copies.text(path);
    args = Copies.list("hook args", args);
    env = Copies.list("hook env", env);
  }

  /**
   * Starts a builder.
   *
   * @param hookName when the hook runs
   * @param path the executable
   * @return a builder
   */
  public static Builder builder(HookName hookName, String path) {
    return new Builder(hookName.jsonName(), path);
  }

  /**
   * Starts a builder with a raw hook name; {@link Builder#build()} refuses an unknown one.
   *
   * @param hookName the {@code hookName} value
   * @param path the executable
   * @return a builder
   */
  public static Builder builder(String hookName, String path) {
    return new Builder(hookName, path);
  }

  /** Builds a {@link Hook}; not thread-safe, use from one thread. */
  public static final class Builder {
    private final String hookName;
    private final String path;
    private final List<String> args = new ArrayList<>();
    private final List<String> env = new ArrayList<>();
    private Integer timeout;

    private Builder(String hookName, String path) {
      this.hookName = hookName;
      this.path = path;
    }

    /**
     * Appends argv entries (the first one is argv[0]).
     *
     * @param values the arguments
     * @return this builder
     */
    public Builder args(String... values) {
      args.addAll(List.of(values));
      return this;
    }

    /**
     * Adds an environment variable for the hook.
     *
     * @param name the variable name: not empty, without {@code '='} or NUL
     * @param value the value: not null (may be empty), without NUL
     * @return this builder
     * @throws IllegalArgumentException naming the variable if the name or value is refused
     */
    public Builder env(String name, String value) {
      env.add(EditChecks.env(name, value));
      return this;
    }

    /**
     * Adds a raw {@code NAME=VALUE} environment entry.
     *
     * @param entry the entry as it will appear in the spec
     * @return this builder
     * @throws IllegalArgumentException naming the entry if it has no {@code '='} after a
     *     non-empty name, or holds NUL
     */
    public Builder rawEnv(String entry) {
      env.add(EditChecks.rawEnv(entry));
      return this;
    }

    /**
     * Sets the timeout.
     *
     * @param seconds seconds before the runtime kills the hook
     * @return this builder
     */
    public Builder timeout(int seconds) {
      this.timeout = seconds;
      return this;
    }

    /**
     * Builds the hook.
     *
     * @return the hook
     * @throws IllegalArgumentException naming the value if the hook name is unknown, the path is
     *     not absolute and normalized or the timeout is not above 0
     */
    public Hook build() {
      return EditChecks.hook(new Hook(hookName, path, args, env, timeout));
    }
  }
}
