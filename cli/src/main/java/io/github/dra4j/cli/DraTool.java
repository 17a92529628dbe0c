package io.github.dra4j.cli;

import io.github.dra4j.cli.demo.Demo;
import io.github.dra4j.cli.explain.ExplainCommand;
import io.github.dra4j.core.version.BuildInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The dra4j command line, {@code java -jar dra4j.jar <command>}, with {@code demo}, {@code cel},
 * {@code apiserver} and {@code explain}. Its exit status is the command's: 0 on success, 1 when the command
 * failed, 2 for bad usage (no command included). {@code --version}, on the tool and on every
 * command, prints {@link #buildInfo()}'s line.
 */
@Command(name = "dra4j", mixinStandardHelpOptions = true, versionProvider = DraTool.Version.class, description = "Develop and test DRA drivers without a cluster.", subcommands = {
    DraTool.DemoCommand.class, CelCommand.class, DraTool.ApiServer.class,
    ExplainCommand.class})
public final class DraTool implements Callable<Integer> {

  /** The artifact whose build writes the version resource. */
  private static final String ARTIFACT = "dra4j-cli";

  @CommandLine.Spec
  private CommandLine.Model.CommandSpec spec;

  /** The root command, for picocli to fill. */
  public DraTool() {}

  /**
   * Runs a command and exits with its status.
   *
   * @param args the command line
   */
  public static void main(String[] args) {
    // The jar logs through slf4j-simple; keep library chatter out of the demo's story.
    if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    }
    System.exit(run(args));
  }

  /**
   * Runs a command.
   *
   * @param args the command line
   * @return the exit status: 0 on success, 1 when the command failed, 2 for bad usage
   */
  public static int run(String... args) {
    return commandLine().execute(args);
  }

  /**
   * The command line, every command of it answering {@code --version} with {@link
   * #buildInfo()}'s line.
   *
   * @return a new command line
   */
  static CommandLine commandLine() {
    CommandLine line = new CommandLine(new DraTool());
    setVersion(line);
    return line;
  }

  private static void setVersion(CommandLine line) {
    line.getSubcommands().values().forEach(sub -> {
      sub.getCommandSpec().versionProvider(new Version());
      setVersion(sub);
    });
  }

  /**
   * What this build of the command line is.
   *
   * @return the version, commit and build time of the {@code dra4j-cli} build
   */
  public static BuildInfo buildInfo() {
    return BuildInfo.of(DraTool.class.getClassLoader(), ARTIFACT, "dra4j");
  }

  /**
   * Without a command: the usage, on standard error, as a usage error.
   *
   * @return 2
   */
  @Override
  public Integer call() {
    spec.commandLine().getErr().println("dra4j: no command given");
    spec.commandLine().usage(spec.commandLine().getErr());
    return 2;
  }

  /** {@code --version}: {@link DraTool#buildInfo()}'s line. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {buildInfo().describe()};
    }
  }

  /** {@code demo}: the whole DRA story on a simulated node. */
  @Command(name = "demo", mixinStandardHelpOptions = true, description = "Run a sample GPU driver through the whole DRA story on a simulated node.")
  static final class DemoCommand implements Callable<Integer> {
    @Override
    public Integer call() {
      return new Demo(System.out).run();
    }
  }

  /** {@code apiserver}: the in-memory API server as a process. */
  @Command(name = "apiserver", mixinStandardHelpOptions = true, description = "Serve the in-memory API server until stopped, and write a kubeconfig for it.")
  static final class ApiServer implements Callable<Integer> {
    @Option(names = "--port", description = "port to listen on (default: any free port)")
    Integer port;

    @Option(names = "--kubeconfig", paramLabel = "FILE", description = "where to write the kubeconfig; - writes it to standard output (and the"
        + " server's URL to standard error)")
    String kubeconfig;

    @Option(names = "--feature-gates", paramLabel = "GATE=BOOL,...", description = "DRA feature gates in kube-apiserver's form, on top of 1.36's defaults")
    String featureGates;

    @Override
    public Integer call() throws InterruptedException {
      List<String> args = new ArrayList<>();
      if (port != null) {
        args.add("--port");
        args.add(port.toString());
      }
      if (kubeconfig != null) {
        args.add("--kubeconfig");
        args.add(kubeconfig);
      }
      if (featureGates != null) {
        args.add("--feature-gates");
        args.add(featureGates);
      }
      return ApiServerCommand.serve(args, System.out, System.err);
    }
  }
}
