package io.github.dra4j.cli;

import io.github.dra4j.cel.DeviceSelectorEnvironment;
import io.github.dra4j.cel.SelectorExplainer;
import io.github.dra4j.cel.SelectorExplanation;
import io.github.dra4j.cli.ApiServerCommand;
import io.github.dra4j.cli.SliceFile;
import io.github.dra4j.cli.demo.Demo;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * The command line of {@code sdk-testing}: {@code java -jar sdk-testing-<version>-cli.jar
 * <command>} with {@code demo}, {@code cel} and {@code apiserver}.
 */
@Command(
    name = "dra4j",
    mixinStandardHelpOptions = true,
    version = "dra4j sdk-testing 0.1.0-SNAPSHOT",
    description = "Develop and test DRA drivers without a cluster.",
    subcommands = {DraTool.DemoCommand.class, DraTool.CelCommand.class,
        DraTool.ApiServer.class})
public final class DraTool implements Runnable {

  @CommandLine.Spec private CommandLine.Model.CommandSpec spec;

  /**
   * Runs a command and exits with its code.
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
   * @return the exit code
   */
  public static int run(String... args) {
    return new CommandLine(new DraTool()).execute(args);
  }

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  /** {@code demo}: the whole DRA story on a simulated node. */
  @Command(name = "demo", mixinStandardHelpOptions = true,
      description = "Run a sample GPU driver through the whole DRA story on a simulated node.")
  static final class DemoCommand implements Callable<Integer> {
    @Override
    public Integer call() {
      return new Demo(System.out).run();
    }
  }

  /** {@code cel}: which published devices a selector matches, and why not. */
  @Command(name = "cel", mixinStandardHelpOptions = true,
      description = "Evaluate a CEL device selector against published devices and explain"
          + " which match and why the others do not.")
  static final class CelCommand implements Callable<Integer> {
    @Option(names = "--slices", required = true,
        description = "YAML or JSON file of ResourceSlice objects (a list or documents)")
    Path slices;

    @Parameters(index = "0", description = "the selector, e.g. 'device.driver == \"x.io\"'")
    String expression;

    @Override
    public Integer call() throws Exception {
      SliceFile file = SliceFile.read(slices);
      SelectorExplanation explanation =
          file.explain(new SelectorExplainer(DeviceSelectorEnvironment.create()), expression);
      System.out.print(explanation.render());
      return 0;
    }
  }

  /** {@code apiserver}: the in-memory API server as a process. */
  @Command(name = "apiserver", mixinStandardHelpOptions = true,
      description = "Serve the in-memory API server until stopped, and write a kubeconfig for it.")
  static final class ApiServer implements Callable<Integer> {
    @Option(names = "--port", description = "port to listen on (default: any free port)")
    Integer port;

    @Option(names = "--kubeconfig", description = "where to write the kubeconfig")
    Path kubeconfig;

    @Override
    public Integer call() throws Exception {
      List<String> args = new ArrayList<>();
      if (port != null) {
        args.add("--port");
        args.add(port.toString());
      }
      if (kubeconfig != null) {
        args.add("--kubeconfig");
        args.add(kubeconfig.toString());
      }
      ApiServerCommand.main(args.toArray(String[]::new));
      return 0;
    }
  }
}
