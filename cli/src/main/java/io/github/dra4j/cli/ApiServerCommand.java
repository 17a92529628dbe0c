package io.github.dra4j.cli;

import io.github.dra4j.resourceapi.FeatureGates;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * Runs the in-memory API server as a process: {@code apiserver [--port N] [--kubeconfig FILE]
 * [--feature-gates GATE=BOOL,...]}. It listens on the loopback interface (port 0 or no {@code
 * --port}: a free one), enforces kube-apiserver 1.36's rules for {@code resource.k8s.io} with the
 * DRA feature gates given (in kube-apiserver's form, on top of 1.36's defaults), writes a
 * kubeconfig pointing at itself if asked ({@code --kubeconfig -}: to standard output, with the
 * URL on standard error), prints its URL and serves until the process is killed. The leading word
 * {@code apiserver} is optional, so a launcher with several sub-commands can pass its arguments
 * through unchanged. Exit status 2 for bad arguments, 1 when the server cannot start.
 */
public final class ApiServerCommand {

  /** Parsed command line. */
  record Arguments(int port, Path kubeconfig, FeatureGates featureGates) {}

  private static final String USAGE = "usage: apiserver [--port N] [--kubeconfig FILE|-] [--feature-gates GATE=true|false,...]";

  private ApiServerCommand() {}

  /**
   * Entry point.
   *
   * @param args the command line
   * @throws InterruptedException if interrupted while serving
   */
  public static void main(String[] args) throws InterruptedException {
    System.exit(serve(List.of(args), System.out, System.err));
  }

  /**
   * Parses the arguments, starts the server and serves until the process is stopped.
   *
   * @param args the command line, optionally starting with {@code apiserver}
   * @param out where the kubeconfig goes for {@code --kubeconfig -}
   * @param err where errors go, and the URL for {@code --kubeconfig -}
   * @return 2 for bad arguments, 1 when the server cannot start; it does not return otherwise
   * @throws InterruptedException if interrupted while serving
   */
  static int serve(List<String> args, PrintStream out, PrintStream err)
      throws InterruptedException {
    Arguments arguments;
    try {
      arguments = parse(args);
    } catch (IllegalArgumentException e) {
      err.println("dra4j apiserver: " + e.getMessage());
      err.println(USAGE);
      return 2;
    }
    InMemoryApiServer server;
    try {
      server = start(arguments, out, toStandardOutput(arguments) ? err : out);
    } catch (RuntimeException e) {
      err.println("dra4j apiserver: cannot start on port " + arguments.port() + ": " + e);
      return 1;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.close();
      stopped.countDown();
    }, "dra4j-apiserver-shutdown"));
    stopped.await();
    return 0;
  }

  private static boolean toStandardOutput(Arguments arguments) {
    return arguments.kubeconfig() != null && arguments.kubeconfig().toString().equals("-");
  }

  /**
   * Starts a server for parsed arguments and reports where it listens.
   *
   * @param arguments the parsed command line
   * @param out where to print the URL and the kubeconfig path
   * @return the running server; the caller closes it
   */
  static InMemoryApiServer start(Arguments arguments, PrintStream out) {
    return start(arguments, out, out);
  }

  /**
   * Starts a server for parsed arguments and reports where it listens.
   *
   * @param arguments the parsed command line
   * @param out where the kubeconfig goes for {@code --kubeconfig -}
   * @param status where to print the URL and the kubeconfig path
   * @return the running server; the caller closes it
   */
  static InMemoryApiServer start(Arguments arguments, PrintStream out, PrintStream status) {
    InMemoryApiServer server = InMemoryApiServer.builder().port(arguments.port())
        .featureGates(arguments.featureGates()).build().start();
    status.println("dra4j in-memory API server listening on " + server.url());
    status.println("feature gates: " + arguments.featureGates());
    if (toStandardOutput(arguments)) {
      out.print(server.kubeconfig());
    } else if (arguments.kubeconfig() != null) {
      server.writeKubeconfig(arguments.kubeconfig());
      status.println("kubeconfig written to " + arguments.kubeconfig().toAbsolutePath());
    }
    status.flush();
    out.flush();
    return server;
  }

  /**
   * Parses the command line.
   *
   * @param args the arguments, optionally starting with {@code apiserver}
   * @return the parsed arguments
   * @throws IllegalArgumentException naming the bad option or value
   */
  static Arguments parse(List<String> args) {
    int port = 0;
    Path kubeconfig = null;
    FeatureGates gates = FeatureGates.kubernetes136();
    int i = !args.isEmpty() && args.get(0).equals("apiserver") ? 1 : 0;
    for (; i < args.size(); i++) {
      String option = args.get(i);
      switch (option) {
        case "--port" -> {
          String value = valueOf(args, ++i, option);
          try {
            port = Integer.parseInt(value);
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--port: not a number: \"" + value + "\"", e);
          }
          if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("--port: out of range 0..65535: " + port);
          }
        }
        case "--kubeconfig" -> kubeconfig = Path.of(valueOf(args, ++i, option));
        case "--feature-gates" -> {
          try {
            gates = gates.withSpec(valueOf(args, ++i, option));
          } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--feature-gates: " + e.getMessage(), e);
          }
        }
        default -> throw new IllegalArgumentException("unknown argument: \"" + option + "\"");
      }
    }
    return new Arguments(port, kubeconfig, gates);
  }

  private static String valueOf(List<String> args, int index, String option) {
    if (index >= args.size() || args.get(index).startsWith("--")) {
      throw new IllegalArgumentException(option + ": missing value");
    }
    return args.get(index);
  }
}
