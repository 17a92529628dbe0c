package io.github.dra4j.core.http;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The default reaction of dra4j's servers to a fatal failure: end the process with status
 * {@value #EXIT_STATUS}, so that its container restarts, instead of living on without serving.
 * Stateless.
 */
public final class FatalErrors {

  /** The exit status of a process ended for a fatal failure (EX_SOFTWARE). */
  public static final int EXIT_STATUS = 70;

  private static final Logger LOG = LoggerFactory.getLogger(FatalErrors.class);

  private FatalErrors() {}

  /**
   * Logs what happened and ends the process with status {@value #EXIT_STATUS}: shutdown hooks
   * get ten seconds (an out-of-memory JVM may never finish them), then the JVM halts.
   *
   * @param what what happened
   * @param cause its cause; may be null
   */
  public static void exitProcess(String what, Throwable cause) {
    String message = "FATAL: " + what + (cause == null ? "" : ": " + cause)
        + "; exiting with status " + EXIT_STATUS;
    // Printed as well as logged: a logger may itself need memory that is gone.
    System.err.println(message);
    System.err.flush();
    LOG.error(message);
    Thread halt = new Thread(() -> {
      try {
        Thread.sleep(10_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      Runtime.getRuntime().halt(EXIT_STATUS);
    }, "dra4j-fatal-halt");
    halt.setDaemon(true);
    halt.start();
    Thread exit = new Thread(() -> System.exit(EXIT_STATUS), "dra4j-fatal-exit");
    exit.start();
  }
}
