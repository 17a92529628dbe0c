package ${package}.command;

import io.github.dra4j.core.version.BuildInfo;
import io.github.dra4j.picocli.PicocliBypass;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The driver's command line, {@code java -jar ${artifactId}.jar <command>}: {@code
 * kubelet-plugin} (the DaemonSet's container) and {@code webhook} (the optional admission
 * webhook's). Exit status 0, or 143 after SIGTERM; 1 when a command fails; 2 for bad settings.
 */
@Command(name = "${artifactId}", mixinStandardHelpOptions = true,
    versionProvider = DriverMain.Version.class,
    description = "The ${driverName} DRA driver.",
    subcommands = {KubeletPluginCommand.class, WebhookCommand.class})
public final class DriverMain implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  /** Creates the top command; picocli fills in its spec. */
  public DriverMain() {}

  /**
   * Runs a command and exits with its status.
   *
   * @param args the command line
   */
  public static void main(String[] args) {
    // dra4j-logging logs to stderr: LOG_LEVEL and LOG_FORMAT (text or json) from the environment.
    // The DaemonSet's command line, kubelet-plugin alone, takes its settings from the environment
    // and runs without loading picocli (see KubeletPluginCommand.run); any other goes through
    // picocli. A failed command exits with its status; status 0 returns from main.
    PicocliBypass.main(args, "kubelet-plugin", KubeletPluginCommand::run,
        line -> commandLine().execute(line));
  }

  /**
   * The command line, which reports a failed command in one line (with its causes) instead of a
   * stack trace.
   *
   * @return a new command line
   */
  public static CommandLine commandLine() {
    return new CommandLine(new DriverMain()).setExecutionExceptionHandler((error, line, parsed) -> {
      line.getErr().println(failure(line.getCommandName(), error));
      return 1;
    });
  }

  /**
   * A failed command in one line, with its causes.
   *
   * @param command the command's name
   * @param error what it threw
   * @return the line
   */
  static String failure(String command, Throwable error) {
    StringBuilder message = new StringBuilder(command).append(": ").append(error);
    for (Throwable cause = error.getCause(); cause != null; cause = cause.getCause()) {
      message.append("; caused by ").append(cause);
    }
    return message.toString();
  }

  /**
   * What this build of the driver is, for {@code --version} and the first line each command
   * logs.
   *
   * @return the name, version, git commit and build time the build wrote
   */
  public static BuildInfo buildInfo() {
    return BuildInfo.of(DriverMain.class.getClassLoader(), "${artifactId}", "${artifactId}");
  }

  /** {@code --version} of the driver and of each command: {@link #buildInfo()}'s line. */
  public static final class Version implements CommandLine.IVersionProvider {
    /** Created by picocli. */
    public Version() {}

    @Override
    public String[] getVersion() {
      return new String[] {buildInfo().describe()};
    }
  }

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return 2;
  }
}
