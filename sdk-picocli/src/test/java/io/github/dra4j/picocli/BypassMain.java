package io.github.dra4j.picocli;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * A driver's {@code main} on {@link PicocliBypass}, run as a process by {@link PicocliBypassTest}:
 * {@code serve} alone reads {@code NAME} and {@code STATUS} from the environment, anything else is
 * picocli's. Each path prints which one ran and exits with {@code STATUS} (default 0).
 */
public final class BypassMain {

  private BypassMain() {}

  /** The picocli command. */
  @Command(name = "serve")
  static final class Serve implements Callable<Integer> {
    @Option(names = "--name", defaultValue = "${env:NAME}")
    String name;

    @Option(names = "--status", defaultValue = "${env:STATUS}")
    String status;

    @Override
    public Integer call() {
      System.out.println("picocli: name=" + name);
      return status == null ? 0 : Integer.parseInt(status);
    }
  }

  /**
   * Runs the command line.
   *
   * @param args the command line
   */
  public static void main(String[] args) {
    PicocliBypass.main(args, "serve", environment -> {
      System.out.println("environment: name=" + environment.get("NAME"));
      return Integer.parseInt(environment.getOrDefault("STATUS", "0"));
    }, line -> new CommandLine(new Serve()).execute(line.length > 0 ? java.util.Arrays
        .copyOfRange(line, 1, line.length) : line));
  }
}
