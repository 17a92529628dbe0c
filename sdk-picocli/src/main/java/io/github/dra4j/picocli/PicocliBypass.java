package io.github.dra4j.picocli;

import java.util.Map;
import java.util.Objects;
import java.util.function.ToIntFunction;

/**
 * A driver's {@code main} that skips picocli for the command line a DaemonSet gives: the command's
 * name alone, such as {@code kubelet-plugin}, with every setting in environment variables.
 * picocli's classes are Java 5 bytecode, which no class-data (CDS or AOT) archive holds, so
 * loading them and reflecting over a command's options is a large part of a plugin's start-up
 * (docs/performance.md). When the arguments are exactly that name, the command runs from the
 * environment and no picocli class is loaded; any other command line (flags, help, another
 * command) goes to picocli as usual. The command must then read from the environment exactly what
 * picocli would fill in without flags: {@link PluginOptions#fromEnvironment} does that for the
 * plugin's own settings.
 *
 * <pre>{@code
 * public static void main(String[] args) {
 *   PicocliBypass.main(args, "kubelet-plugin", KubeletPluginCommand::run,
 *       line -> commandLine().execute(line));
 * }
 * }</pre>
 *
 * <p>Keep picocli's types out of what the bypass touches: the class with {@code main} may name
 * picocli inside method bodies and lambdas, but the two functions handed here should be a method
 * reference or a lambda returning {@code int}, not a method whose signature names a picocli type
 * (resolving it would load that type). Static methods only; no state.
 */
public final class PicocliBypass {

  private PicocliBypass() {}

  /**
   * Runs the driver's command line and ends the process as a driver's {@code main} should: a
   * non-zero status exits with it; status 0 returns, so that {@code main} ends normally (after
   * SIGTERM the kubelet plugin's shutdown hook waits for {@code main} to finish, and {@link
   * System#exit} from {@code main} would wait for that hook in turn).
   *
   * @param args the command line
   * @param command the command that runs from the environment when it is the only argument,
   *     such as {@code kubelet-plugin}
   * @param fromEnvironment runs that command from the process environment ({@link
   *     System#getenv()}, passed in) and returns its exit status, catching what it throws
   * @param commandLine runs any other command line with picocli and returns its exit status,
   *     such as {@code line -> new CommandLine(new Main()).execute(line)}
   */
  public static void main(String[] args, String command,
      ToIntFunction<Map<String, String>> fromEnvironment, ToIntFunction<String[]> commandLine) {
    int status = execute(args, command, System.getenv(), fromEnvironment, commandLine);
    if (status != 0) {
      System.exit(status);
    }
  }

  /**
   * Runs the driver's command line and returns its exit status, for a {@code main} that ends the
   * process itself and for tests.
   *
   * @param args the command line
   * @param command the command that runs from the environment when it is the only argument
   * @param environment the environment that command reads, such as {@link System#getenv()}
   * @param fromEnvironment runs that command from the environment; its exit status
   * @param commandLine runs any other command line with picocli; its exit status
   * @return the exit status of whichever ran
   */
  public static int execute(String[] args, String command, Map<String, String> environment,
      ToIntFunction<Map<String, String>> fromEnvironment, ToIntFunction<String[]> commandLine) {
    Objects.requireNonNull(args, "args");
    Objects.requireNonNull(command, "command");
    Objects.requireNonNull(environment, "environment");
    Objects.requireNonNull(fromEnvironment, "fromEnvironment");
    Objects.requireNonNull(commandLine, "commandLine");
    return bypasses(args, command) ? fromEnvironment.applyAsInt(environment)
        : commandLine.applyAsInt(args);
  }

  /**
   * Whether a command line skips picocli: it is the command's name and nothing else.
   *
   * @param args the command line
   * @param command the command that runs from the environment
   * @return true when {@code args} is exactly {@code [command]}
   */
  public static boolean bypasses(String[] args, String command) {
    return args.length == 1 && args[0].equals(command);
  }
}
