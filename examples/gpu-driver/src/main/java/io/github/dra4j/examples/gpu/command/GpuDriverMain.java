package io.github.dra4j.examples.gpu.command;

import io.github.dra4j.core.version.BuildInfo;
import io.github.dra4j.picocli.PicocliBypass;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The driver's command line, {@code java -jar gpu-driver.jar <command>}: {@code kubelet-plugin}
 * (the DaemonSet), {@code webhook} (the optional admission webhook) and {@code demo} (the whole
 * story on a simulated node, no cluster and no GPU needed).
 */
@Command(name = "gpu-driver", mixinStandardHelpOptions = true, versionProvider = GpuDriverMain.Version.class, description = "The dra4j reference GPU DRA driver.")
public final class GpuDriverMain implements Callable<Integer> {

  /** The commands, by name, in the order help lists them. */
  private static final Map<String, Supplier<Object>> COMMANDS = commands();

  @Spec
  CommandSpec spec;

  /** Creates the top command; picocli fills in its spec. */
  public GpuDriverMain() {}

  /**
   * Runs a command and exits with its status.
   *
   * @param args the command line
   */
  public static void main(String[] args) {
    // The jar logs through dra4j-logging to stderr, LOG_LEVEL and LOG_FORMAT from the environment:
    // INFO for the driver's commands unless LOG_LEVEL says otherwise, errors only for the demo,
    // whose own output tells the story. -D... on the command line wins.
    if (args.length > 0 && args[0].equals("demo")) {
      defaultProperty("dra4j.logging.defaultLevel", "error");
    }
    // The DaemonSet's command line, kubelet-plugin alone, runs from the environment without
    // loading picocli; any other goes through picocli.
    PicocliBypass.main(args, "kubelet-plugin", KubeletPluginCommand::run,
        line -> commandLine(line).execute(line));
  }

  /**
   * The command line for these arguments. picocli reflects over every option of every command
   * it is given, which costs start-up time, so when the first argument names a command only that
   * one is built; anything else (help, a typo) gets all of them.
   *
   * @param args the command line
   * @return the command line to execute it with
   */
  static CommandLine commandLine(String... args) {
    CommandLine line = new CommandLine(new GpuDriverMain());
    Supplier<Object> named = args.length > 0 ? COMMANDS.get(args[0]) : null;
    if (named != null) {
      line.addSubcommand(args[0], named.get());
    } else {
      COMMANDS.forEach((name, command) -> line.addSubcommand(name, command.get()));
    }
    Version.applyTo(line);
    return line;
  }

  /**
   * What this build of the driver is, for {@code --version} and the first line each command
   * logs.
   *
   * @return the version, git commit and build time of the {@code dra4j-example-gpu-driver} build
   */
  static BuildInfo buildInfo() {
    return BuildInfo.of(GpuDriverMain.class.getClassLoader(), "dra4j-example-gpu-driver",
        "gpu-driver");
  }

  /**
   * {@code --version}, on the driver and each command: {@link #buildInfo()}'s line. A class of
   * its own, so the DaemonSet's command line, which never builds a {@link CommandLine}, does not
   * load picocli's interface to verify {@link GpuDriverMain}.
   */
  static final class Version implements CommandLine.IVersionProvider {
    /**
     * Makes every command of a command line answer {@code --version} with this.
     *
     * @param line the driver's command line
     */
    static void applyTo(CommandLine line) {
      line.getSubcommands().values()
          .forEach(sub -> sub.getCommandSpec().versionProvider(new Version()));
    }

    @Override
    public String[] getVersion() {
      return new String[] {buildInfo().describe()};
    }
  }

  private static Map<String, Supplier<Object>> commands() {
    Map<String, Supplier<Object>> commands = new LinkedHashMap<>();
    commands.put("kubelet-plugin", KubeletPluginCommand::new);
    commands.put("webhook", WebhookCommand::new);
    commands.put("demo", DemoCommand::new);
    return Collections.unmodifiableMap(commands);
  }

  private static void defaultProperty(String name, String value) {
    if (System.getProperty(name) == null) {
      System.setProperty(name, value);
    }
  }

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return 2;
  }
}
