package io.github.dra4j.examples.gpu.command;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The driver's command line, {@code java -jar gpu-driver.jar <command>}: {@code kubelet-plugin}
 * (the DaemonSet), {@code webhook} (the optional admission webhook) and {@code demo} (the whole
 * story on a simulated node, no cluster and no GPU needed).
 */
@Command(name = "gpu-driver", mixinStandardHelpOptions = true,
    description = "The dra4j reference GPU DRA driver.",
    subcommands = {KubeletPluginCommand.class, WebhookCommand.class, DemoCommand.class})
public final class GpuDriverMain implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  /**
   * Runs a command and exits with its status.
   *
   * @param args the command line
   */
  public static void main(String[] args) {
    // The jar logs through slf4j-simple to stderr: time-stamped INFO for the driver's commands,
    // errors only for the demo, whose own output tells the story. -D... on the command line wins.
    boolean demo = args.length > 0 && args[0].equals("demo");
    defaultProperty("org.slf4j.simpleLogger.defaultLogLevel", demo ? "error" : "info");
    defaultProperty("org.slf4j.simpleLogger.showDateTime", "true");
    defaultProperty("org.slf4j.simpleLogger.dateTimeFormat", "yyyy-MM-dd'T'HH:mm:ss.SSSZ");
    int status = new CommandLine(new GpuDriverMain()).execute(args);
    if (status != 0) {
      System.exit(status);
    }
    // Status 0 returns from main instead: after SIGTERM the plugin's shutdown hook waits for
    // main to finish, and System.exit would wait for that hook.
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
