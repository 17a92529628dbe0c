package io.github.dra4j.examples.gpu.mps;

import io.github.dra4j.examples.gpu.nvml.NvidiaSmiCommands;
import io.github.dra4j.examples.gpu.nvml.ProcessCommandRunner;
import io.github.dra4j.examples.gpu.sharing.SharingCommands;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The stub MPS programs of a test driver root: the stub {@code nvidia-cuda-mps-control} and
 * {@code nvidia-smi} (test resources under {@code mps/}) in {@code usr/bin}, and what they
 * recorded. Owned by one test.
 */
public final class MpsStubs {

  private final Path root;
  private final Path bin;

  private MpsStubs(Path root) {
    this.root = root;
    this.bin = root.resolve("usr/bin");
  }

  /**
   * Writes the stubs, executable, into {@code <root>/usr/bin}.
   *
   * @param root the driver root
   * @return the root
   */
  public static MpsStubs create(Path root) throws IOException {
    MpsStubs fake = new MpsStubs(root);
    Files.createDirectories(fake.bin);
    for (String name : List.of(ControlDaemons.CONTROL, "nvidia-smi")) {
      try (InputStream in = MpsStubs.class.getResourceAsStream("/mps/" + name)) {
        Files.copy(in, fake.bin.resolve(name), StandardCopyOption.REPLACE_EXISTING);
      }
      Files.setPosixFilePermissions(fake.bin.resolve(name),
          PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    return fake;
  }

  /** Whether the daemon can get its own /dev/shm here (root, with unshare). */
  public static boolean canIsolateShm() {
    try {
      Process p = new ProcessBuilder("unshare", "--mount", "true").redirectErrorStream(true)
          .start();
      p.getInputStream().readAllBytes();
      return p.waitFor() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * The real commands on the stubs: {@code nvidia-smi} and the control daemons.
   *
   * @return the sharing commands
   */
  public SharingCommands sharing() {
    return new NvidiaSmiCommands(bin.resolve("nvidia-smi").toString(),
        new ProcessCommandRunner(Map.of(), Duration.ofSeconds(20)), daemons());
  }

  /**
   * The control daemons on the stub, their shm isolated where possible.
   *
   * @return the daemons
   */
  public ControlDaemons daemons() {
    return new ControlDaemons(bin.resolve(ControlDaemons.CONTROL),
        Optional.of(root.resolve("usr/lib64")), canIsolateShm(),
        new MpsTimeouts(Duration.ofSeconds(20), Duration.ofSeconds(3)),
        new ProcessTable(Path.of("/proc")));
  }

  /** The directory of the stubs. */
  public Path bin() {
    return bin;
  }

  /** What the control stub recorded. */
  public List<String> mpsLog() throws IOException {
    Path log = bin.resolve("mps-stub.log");
    return Files.exists(log) ? Files.readAllLines(log) : List.of();
  }

  /** What the nvidia-smi stub recorded. */
  public List<String> smiLog() throws IOException {
    Path log = bin.resolve("nvidia-smi.log");
    return Files.exists(log) ? Files.readAllLines(log) : List.of();
  }

  /** The PIDs of every daemon the stub started. */
  public List<Long> daemonPids() throws IOException {
    Path pids = bin.resolve("mps-stub.pids");
    return Files.exists(pids) ? Files.readAllLines(pids).stream().map(String::strip)
        .filter(s -> !s.isEmpty()).map(Long::parseLong).toList() : List.of();
  }

  /** The PIDs of the stub's daemons that still run. */
  public List<Long> runningDaemons() throws IOException {
    ProcessTable table = new ProcessTable(Path.of("/proc"));
    return daemonPids().stream().filter(pid -> table.process(pid).isPresent()).toList();
  }

  /** Creates or removes a control file of the stubs ({@code block-start}, {@code smi-fail}...). */
  public void flag(String name, boolean on) throws IOException {
    if (on) {
      Files.writeString(bin.resolve(name), "");
    } else {
      Files.deleteIfExists(bin.resolve(name));
    }
  }

  /** Kills every daemon the stub started; for test clean-up. */
  public void killAll() throws IOException {
    for (long pid : daemonPids()) {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }
  }
}
