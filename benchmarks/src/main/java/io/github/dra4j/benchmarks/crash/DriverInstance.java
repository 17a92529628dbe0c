package io.github.dra4j.benchmarks.crash;

import io.github.dra4j.benchmarks.floor.ServerProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One process of the crash-test driver: started with a crash plan or none, killed with SIGKILL,
 * started again. In rolling-update mode each instance has its pod UID and its own DRA socket.
 * Owned by the harness thread.
 */
final class DriverInstance {

  private static final long START_TIMEOUT_MILLIS = 60_000;

  private final CrashHarness.Layout layout;
  private final String podUid;
  private final List<String> javaCommand;
  private final Path output;
  private Process process;
  private Path draSocket;
  private int starts;

  DriverInstance(CrashHarness.Layout layout, String podUid) {
    this(layout, podUid, List.of(Path.of(System.getProperty("java.home"), "bin", "java")
        .toString(), "-XX:TieredStopAtLevel=1", "-Xshare:auto"));
  }

  /**
   * An instance run by a given JVM.
   *
   * @param layout the directories
   * @param podUid the pod UID in rolling-update mode, or null
   * @param java the {@code java} binary and its options
   */
  DriverInstance(CrashHarness.Layout layout, String podUid, List<String> java) {
    this.layout = layout;
    this.podUid = podUid;
    this.javaCommand = List.copyOf(java);
    this.output = layout.root().resolve("driver-" + (podUid == null ? "single" : podUid) + ".out");
  }

  /** Starts the process and waits until it serves. */
  void start(Optional<CrashPoint.Plan> plan) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(javaCommand);
    command.addAll(List.of("-cp", ServerProcess.JvmLaunch.currentClassPath(),
        CrashTestDriverProcess.class.getName(),
        layout.registry().toString(), layout.data().toString(), layout.cdi().toString(),
        layout.hardware().toString(), layout.bootId().toString()));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().put("KUBECONFIG", layout.kubeconfig().toString());
    builder.environment().remove(CrashPoint.ENVIRONMENT);
    plan.ifPresent(p -> builder.environment().put(CrashPoint.ENVIRONMENT, p.text()));
    if (podUid != null) {
      builder.environment().put("POD_UID", podUid);
    } else {
      builder.environment().remove("POD_UID");
    }
    Files.deleteIfExists(output);
    process = builder.redirectErrorStream(true).redirectOutput(output.toFile()).start();
    starts++;
    long deadline = System.currentTimeMillis() + START_TIMEOUT_MILLIS;
    while (System.currentTimeMillis() < deadline) {
      Optional<String> started = readOutput().lines().filter(l -> l.startsWith("started "))
          .findFirst();
      if (started.isPresent()) {
        draSocket = Path.of(started.get().substring("started ".length()).strip());
        return;
      }
      if (!process.isAlive()) {
        String why = "crash-test driver exited with " + process.exitValue()
            + " before serving; output:\n" + readOutput();
        if (plan.isPresent() && process.exitValue() == 137) {
          throw new DiedAtPlannedPoint(why);
        }
        throw new IOException(why);
      }
      Thread.sleep(20);
    }
    throw new IOException("crash-test driver did not serve within " + START_TIMEOUT_MILLIS
        + " ms; output:\n" + readOutput());
  }

  /**
   * The process reached its planned crash point while it started: the claim lifecycle's start-up
   * repair finishes unprepares that a crash interrupted, through the driver, where an unprepare
   * crash point is.
   */
  static final class DiedAtPlannedPoint extends IOException {
    private static final long serialVersionUID = 1L;

    DiedAtPlannedPoint(String message) {
      super(message);
    }
  }

  private String readOutput() throws IOException {
    return Files.exists(output) ? Files.readString(output, StandardCharsets.UTF_8) : "";
  }

  /** SIGKILL, then waits for the process to be gone. */
  void kill() throws InterruptedException {
    kill(process);
  }

  /**
   * A SIGKILL for the process running now, to be sent later: it never reaches a process started
   * after this call (one started because the process died of something else meanwhile).
   *
   * @return sends the SIGKILL and waits for the process to be gone
   */
  Runnable killLater() {
    Process target = process;
    return () -> {
      try {
        kill(target);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    };
  }

  private static void kill(Process target) throws InterruptedException {
    if (target != null && target.isAlive()) {
      target.destroyForcibly();
      target.waitFor(30, TimeUnit.SECONDS);
    }
  }

  /** SIGTERM, as at the end of a run. */
  void stop() throws InterruptedException {
    if (process != null && process.isAlive()) {
      process.destroy();
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        kill();
      }
    }
  }

  boolean isAlive() {
    return process != null && process.isAlive();
  }

  /** Whether the process is gone or goes within half a second (a call cut by its death). */
  boolean died() throws InterruptedException {
    return process == null || process.waitFor(500, TimeUnit.MILLISECONDS);
  }

  Path draSocket() {
    return draSocket;
  }

  long pid() {
    return process.pid();
  }

  int starts() {
    return starts;
  }
}
