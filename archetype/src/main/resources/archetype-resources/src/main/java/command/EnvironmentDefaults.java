package ${package}.command;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Defaults each flag to the environment variable of the same name in upper case, {@code
 * --device-count} to {@code DEVICE_COUNT}, so that a DaemonSet can set either. The SDK's {@code
 * PluginOptions} name their variables by the same rule ({@code --node-name}, {@code NODE_NAME}).
 * A missing or blank variable leaves the flag unset.
 */
public final class EnvironmentDefaults implements IDefaultValueProvider {

  private final Map<String, String> environment;

  /** Reads the process environment; the constructor picocli calls. */
  public EnvironmentDefaults() {
    this(System.getenv());
  }

  /**
   * Reads a given environment, for tests.
   *
   * @param environment variable names to values
   */
  public EnvironmentDefaults(Map<String, String> environment) {
    this.environment = Map.copyOf(Objects.requireNonNull(environment, "environment"));
  }

  /**
   * The variable a flag defaults to.
   *
   * @param option the flag
   * @return its longest name without the dashes, in upper case, {@code -} becoming {@code _}
   */
  public static String variable(OptionSpec option) {
    String name = option.longestName();
    int start = 0;
    while (start < name.length() && name.charAt(start) == '-') {
      start++;
    }
    return name.substring(start).replace('-', '_').toUpperCase(Locale.ROOT);
  }

  @Override
  public String defaultValue(ArgSpec argument) {
    if (!(argument instanceof OptionSpec option)) {
      return null;
    }
    return value(environment.get(variable(option)));
  }

  /**
   * The environment as the flags see it, for running a command without picocli: blank variables
   * left out, values trimmed.
   *
   * @param environment variable names to values
   * @return the variables that set a flag
   */
  public static Map<String, String> values(Map<String, String> environment) {
    Map<String, String> values = new HashMap<>();
    environment.forEach((name, value) -> {
      String flag = value(value);
      if (flag != null) {
        values.put(name, flag);
      }
    });
    return values;
  }

  private static String value(String variable) {
    return variable == null || variable.isBlank() ? null : variable.trim();
  }
}
