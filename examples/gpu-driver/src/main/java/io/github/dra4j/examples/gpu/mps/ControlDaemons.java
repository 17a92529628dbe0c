package io.github.dra4j.examples.gpu.mps;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MPS control daemons run by {@code nvidia-cuda-mps-control} from the driver root, as children
 * of the plugin (see the package description for the shared memory and for what a plugin
 * restart does to them).
 *
 * <p>Start: the directories; {@code nvidia-cuda-mps-control -d} (with {@code -M} for several
 * users) with {@code CUDA_VISIBLE_DEVICES} = the group's UUIDs and {@code
 * CUDA_MPS_PIPE_DIRECTORY} / {@code CUDA_MPS_LOG_DIRECTORY} = the group's {@code pipe} and
 * {@code log}; the daemon's PID from {@code pipe/nvidia-cuda-mps-control.pid}, checked against
 * the process's arguments; {@code get_server_list} until it answers; then the group's commands,
 * each through the control program's standard input. The whole start is bounded by the start
 * timeout. Stop: {@code quit}, a wait bounded by the stop timeout, SIGKILL for the daemon and its
 * children if still there, then the directory removed.
 *
 * <p>Immutable; thread-safe for different groups (the driver handles one claim at a time).
 */
public final class ControlDaemons implements MpsDaemons {

  /** The control program's file name. */
  public static final String CONTROL = "nvidia-cuda-mps-control";

  private static final Logger LOG = LoggerFactory.getLogger(ControlDaemons.class);
  private static final Duration POLL = Duration.ofMillis(100);
  /** Binds the group's shm directory on /dev/shm in a new mount namespace, then runs $@. */
  private static final String SHM_SCRIPT = "mount --bind \"$1\" /dev/shm && shift && exec \"$@\"";

  private final Path control;
  private final Optional<Path> libraryDirectory;
  private final boolean isolateShm;
  private final Duration startTimeout;
  private final Duration stopTimeout;
  private final ProcessTable processes;

  /**
   * Creates the daemons' runner.
   *
   * @param control the control program, for example {@code
   *     /driver-root/usr/bin/nvidia-cuda-mps-control}
   * @param libraryDirectory where the driver's libraries are ({@code LD_LIBRARY_PATH} of the
   *     control program), if not on the default path
   * @param isolateShm whether the daemon runs in its own mount namespace with the group's {@code
   *     shm} directory on {@code /dev/shm} ({@code unshare} and {@code mount}, which need
   *     CAP_SYS_ADMIN); without it the daemon shares the plugin's {@code /dev/shm}, which only
   *     suits tests
   * @param timeouts how long a start may take, and a daemon may take to quit
   * @param processes the process table, to identify and watch daemons
   */
  public ControlDaemons(Path control, Optional<Path> libraryDirectory, boolean isolateShm,
      MpsTimeouts timeouts, ProcessTable processes) {
    this.control = Objects.requireNonNull(control, "control");
    this.libraryDirectory = Objects.requireNonNull(libraryDirectory, "libraryDirectory");
    this.isolateShm = isolateShm;
    this.startTimeout = timeouts.start();
    this.stopTimeout = timeouts.stop();
    this.processes = Objects.requireNonNull(processes, "processes");
  }

  /**
   * Daemons for a node where {@code nvidia-cuda-mps-control} was not found: starting one fails
   * naming the paths tried; stopping one still stops a recorded daemon and removes the directory.
   *
   * @param tried where the control program was looked for
   * @param processes the process table
   * @return the daemons' runner
   */
  public static MpsDaemons notFound(List<Path> tried, ProcessTable processes) {
    ControlDaemons stopper = new ControlDaemons(tried.isEmpty() ? Path.of("/" + CONTROL)
        : tried.get(0), Optional.empty(), false, MpsTimeouts.DEFAULT, processes);
    String paths = String.join(", ", tried.stream().map(Path::toString).toList());
    return new MpsDaemons() {
      @Override
      public Optional<DaemonProcess> start(MpsGroup group, Path pluginDataDirectory,
          Launched launched) throws IOException {
        throw new IOException("cannot start the MPS control daemon for " + group.uuids() + ": "
            + CONTROL + " was not found; tried " + paths);
      }

      @Override
      public boolean isRunning(DaemonProcess daemon) {
        return stopper.isRunning(daemon);
      }

      @Override
      public void stop(Path directory, Optional<DaemonProcess> daemon,
          OptionalLong launchedAfter) throws IOException {
        stopper.stop(directory, daemon, launchedAfter);
      }

      @Override
      public OptionalLong nowTicks() {
        return stopper.nowTicks();
      }
    };
  }

  @Override
  public Optional<DaemonProcess> start(MpsGroup group, Path pluginDataDirectory,
      Launched launched) throws IOException {
    Path directory = group.directory(pluginDataDirectory);
    long deadline = System.nanoTime() + startTimeout.toNanos();
    MpsDirectories.create(directory);
    Path pidFile = MpsDirectories.pipe(directory).resolve(MpsDirectories.PID_FILE);
    Files.deleteIfExists(pidFile);
    List<String> command = launchCommand(directory, group.multiUser());
    Map<String, String> environment = environment(directory);
    environment.put("CUDA_VISIBLE_DEVICES", String.join(",", group.uuids()));
    LOG.info("Starting the MPS control daemon {} for {}: {}", group.id(), group.uuids(),
        String.join(" ", command));
    ControlProcesses.Result result = ControlProcesses.run(command, environment, null,
        directory.resolve("launch.out"), remaining(deadline));
    if (result.exit() != 0) {
      throw new IOException("`" + String.join(" ", command) + "` failed with exit code "
          + result.exit() + "; output: " + result.output());
    }
    DaemonProcess daemon = awaitPidFile(pidFile, deadline, group);
    launched.launched(daemon);
    awaitAnswer(directory, deadline, group);
    for (String line : group.commands()) {
      ControlProcesses.Result answer = client(directory, line, remaining(deadline));
      if (answer.exit() != 0) {
        throw new IOException("MPS control daemon " + group.id() + " refused `" + line
            + "` with exit code " + answer.exit() + "; output: " + answer.output());
      }
    }
    LOG.info("MPS control daemon {} runs as PID {} for {}{}", group.id(), daemon.pid(),
        group.uuids(), group.commands().isEmpty() ? "" : ", configured with "
            + group.commands());
    return Optional.of(daemon);
  }

  @Override
  public boolean isRunning(DaemonProcess daemon) {
    return processes.isRunning(daemon);
  }

  @Override
  public OptionalLong nowTicks() {
    return processes.nowTicks();
  }

  @Override
  public void stop(Path directory, Optional<DaemonProcess> recorded, OptionalLong launchedAfter)
      throws IOException {
    Optional<DaemonProcess> daemon = recorded.filter(processes::isRunning)
        .or(() -> fromPidFile(directory, launchedAfter));
    boolean exists = Files.isDirectory(MpsDirectories.pipe(directory));
    if (!exists && daemon.isEmpty()) {
      MpsDirectories.remove(directory);
      return;
    }
    long deadline = System.nanoTime() + stopTimeout.toNanos();
    if (exists && Files.isExecutable(control)) {
      try {
        ControlProcesses.Result answer = client(directory, "quit", remaining(deadline));
        LOG.info("MPS control daemon in {} told to quit: exit code {}, output {}", directory,
            answer.exit(), answer.output());
      } catch (IOException e) {
        LOG.warn("MPS control daemon in {} did not take `quit`: {}", directory, e.getMessage());
      }
    }
    if (daemon.isPresent()) {
      DaemonProcess process = daemon.get();
      if (!awaitExit(process, deadline)) {
        LOG.warn("MPS control daemon PID {} in {} did not quit within {}; killing it", process
            .pid(), directory, stopTimeout);
        ProcessHandle.of(process.pid()).filter(h -> processes.isRunning(process)).ifPresent(h -> {
          h.descendants().forEach(ProcessHandle::destroyForcibly);
          h.destroyForcibly();
        });
        if (!awaitExit(process, System.nanoTime() + stopTimeout.toNanos())) {
          throw new IOException("MPS control daemon PID " + process.pid() + " in " + directory
              + " is still running after SIGKILL");
        }
      }
    }
    MpsDirectories.remove(directory);
  }

  /** The daemon its pid file names, if it runs, started after the launch and is the program. */
  private Optional<DaemonProcess> fromPidFile(Path directory, OptionalLong launchedAfter) {
    if (launchedAfter.isEmpty()) {
      return Optional.empty(); // without a launch time a reused PID cannot be told apart
    }
    return readPid(MpsDirectories.pipe(directory).resolve(MpsDirectories.PID_FILE))
        .flatMap(processes::process)
        .filter(p -> p.startTicks() >= launchedAfter.getAsLong() && isControl(p.pid()));
  }

  private DaemonProcess awaitPidFile(Path pidFile, long deadline, MpsGroup group)
      throws IOException {
    while (true) {
      Optional<DaemonProcess> daemon = readPid(pidFile).flatMap(processes::process);
      if (daemon.isPresent() && isControl(daemon.get().pid())) {
        return daemon.get();
      }
      if (System.nanoTime() - deadline > 0) {
        throw new IOException("MPS control daemon " + group.id() + " wrote no valid pid file "
            + pidFile + " within " + startTimeout + (daemon.isPresent() ? "; PID "
                + daemon.get().pid() + " runs " + processes.arguments(daemon.get().pid()) : ""));
      }
      pause();
    }
  }

  private void awaitAnswer(Path directory, long deadline, MpsGroup group) throws IOException {
    while (true) {
      ControlProcesses.Result answer = client(directory, "get_server_list", remaining(deadline));
      if (answer.exit() == 0) {
        return;
      }
      if (System.nanoTime() - deadline > 0) {
        throw new IOException("MPS control daemon " + group.id() + " did not answer"
            + " get_server_list within " + startTimeout + "; last exit code " + answer.exit()
            + ", output: " + answer.output());
      }
      pause();
    }
  }

  private boolean awaitExit(DaemonProcess daemon, long deadline) throws IOException {
    while (processes.isRunning(daemon)) {
      if (System.nanoTime() - deadline > 0) {
        return false;
      }
      pause();
    }
    return true;
  }

  private ControlProcesses.Result client(Path directory, String line, Duration timeout)
      throws IOException {
    List<String> command = new ArrayList<>(libraryPrefix());
    command.add(control.toString());
    return ControlProcesses.run(command, environment(directory), line + "\n",
        directory.resolve("control.out"), timeout);
  }

  private List<String> launchCommand(Path directory, boolean multiUser) {
    List<String> command = new ArrayList<>();
    if (isolateShm) {
      command.addAll(List.of("unshare", "--mount", "--propagation", "private", "sh", "-c",
          SHM_SCRIPT, "mps-launch", MpsDirectories.shm(directory).toString()));
    }
    command.addAll(libraryPrefix());
    command.add(control.toString());
    command.add("-d");
    if (multiUser) {
      command.add("-M");
    }
    return command;
  }

  /** {@code env LD_LIBRARY_PATH=<dir>}, so that only the control program gets the path. */
  private List<String> libraryPrefix() {
    return libraryDirectory.map(dir -> List.of("env", "LD_LIBRARY_PATH=" + dir))
        .orElse(List.of());
  }

  private static Map<String, String> environment(Path directory) {
    Map<String, String> environment = new LinkedHashMap<>();
    environment.put("CUDA_MPS_PIPE_DIRECTORY", MpsDirectories.pipe(directory).toString());
    environment.put("CUDA_MPS_LOG_DIRECTORY", MpsDirectories.log(directory).toString());
    return environment;
  }

  private boolean isControl(long pid) {
    String name = control.getFileName().toString();
    return processes.arguments(pid).stream()
        .anyMatch(argument -> argument.equals(name) || argument.endsWith("/" + name));
  }

  private static Optional<Long> readPid(Path pidFile) {
    try {
      byte[] bytes = io.github.dra4j.core.file.BoundedFileReader.read(pidFile, 64,
          java.nio.file.LinkOption.NOFOLLOW_LINKS);
      return Optional.of(Long.parseLong(new String(bytes, StandardCharsets.US_ASCII).strip()));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  private static Duration remaining(long deadline) {
    long nanos = deadline - System.nanoTime();
    return Duration.ofNanos(Math.max(nanos, POLL.toNanos()));
  }

  private static void pause() throws InterruptedIOException {
    try {
      Thread.sleep(POLL.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for an MPS control daemon");
    }
  }
}
