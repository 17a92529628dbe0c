package io.github.dra4j.examples.gpu.nvml;

import io.github.dra4j.examples.gpu.mps.MpsDaemons;
import io.github.dra4j.examples.gpu.sharing.SharingCommands;
import io.github.dra4j.examples.gpu.sharing.SharingSetting;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies sharing settings with {@code nvidia-smi}, one GPU after the other:
 *
 * <ul>
 *   <li>time slicing: {@code nvidia-smi -i <uuid> -c DEFAULT}, then {@code nvidia-smi
 *       compute-policy -i <uuid> --set-timeslice <0..3>};
 *   <li>MPS: {@code nvidia-smi -i <uuid> -c EXCLUSIVE_PROCESS}; the control daemons are {@link
 *       #mps()}'s;
 *   <li>reset of time slicing: {@code -c DEFAULT} and {@code --set-timeslice 0}; of MPS: {@code
 *       -c DEFAULT}.
 * </ul>
 *
 * <p>The first failing command ends the call with its {@link IOException}. Immutable; thread-safe
 * if the runner is (the driver serializes sharing changes per GPU).
 */
public final class NvidiaSmiCommands implements SharingCommands {

  private static final Logger LOG = LoggerFactory.getLogger(NvidiaSmiCommands.class);

  private final String nvidiaSmi;
  private final CommandRunner runner;
  private final MpsDaemons mps;

  /**
   * Creates the commands.
   *
   * @param nvidiaSmi the {@code nvidia-smi} program, for example {@code
   *     /driver-root/usr/bin/nvidia-smi}
   * @param runner runs each command line
   * @param mps the MPS control daemons
   */
  public NvidiaSmiCommands(String nvidiaSmi, CommandRunner runner, MpsDaemons mps) {
    this.nvidiaSmi = Objects.requireNonNull(nvidiaSmi, "nvidiaSmi");
    this.runner = Objects.requireNonNull(runner, "runner");
    this.mps = Objects.requireNonNull(mps, "mps");
  }

  /**
   * Commands for a node where {@code nvidia-smi} was not found: every call with GPUs fails with
   * an {@link IOException} naming the paths tried; calls without GPUs succeed.
   *
   * @param tried where {@code nvidia-smi} was looked for
   * @param mps the MPS control daemons
   * @return the commands
   */
  public static SharingCommands missing(List<Path> tried, MpsDaemons mps) {
    String paths = DriverRoot.joined(List.copyOf(tried));
    Objects.requireNonNull(mps, "mps");
    return new SharingCommands() {
      @Override
      public void apply(SharingSetting setting, List<String> gpuUuids) throws IOException {
        fail("change the sharing of", gpuUuids);
      }

      @Override
      public void reset(SharingSetting applied, List<String> gpuUuids) throws IOException {
        fail("reset (nvidia-smi -c DEFAULT" + (applied instanceof SharingSetting.TimeSlicing
            ? ", --set-timeslice 0" : "") + ") the sharing of", gpuUuids);
      }

      @Override
      public MpsDaemons mps() {
        return mps;
      }

      private void fail(String action, List<String> gpuUuids) throws IOException {
        if (!gpuUuids.isEmpty()) {
          throw new IOException("cannot " + action + " GPU " + String.join(", ", gpuUuids)
              + ": nvidia-smi was not found; tried " + paths);
        }
      }
    };
  }

  @Override
  public void apply(SharingSetting setting, List<String> gpuUuids) throws IOException {
    Objects.requireNonNull(setting, "setting");
    checkUuids(gpuUuids);
    if (setting instanceof SharingSetting.TimeSlicing timeSlicing) {
      for (String uuid : gpuUuids) {
        computeMode(uuid, "DEFAULT");
        timeSlice(uuid, timeSlicing.interval().number());
      }
    } else if (setting instanceof SharingSetting.Mps) {
      for (String uuid : gpuUuids) {
        computeMode(uuid, "EXCLUSIVE_PROCESS");
      }
    } else {
      throw new IllegalArgumentException("unknown sharing setting " + setting);
    }
  }

  @Override
  public void reset(SharingSetting applied, List<String> gpuUuids) throws IOException {
    Objects.requireNonNull(applied, "applied");
    checkUuids(gpuUuids);
    for (String uuid : gpuUuids) {
      computeMode(uuid, "DEFAULT");
      if (applied instanceof SharingSetting.TimeSlicing) {
        timeSlice(uuid, SharingSetting.TimeSliceInterval.Default.number());
      }
    }
  }

  @Override
  public MpsDaemons mps() {
    return mps;
  }

  private void computeMode(String uuid, String mode) throws IOException {
    run(List.of(nvidiaSmi, "-i", uuid, "-c", mode));
  }

  private void timeSlice(String uuid, int number) throws IOException {
    run(List.of(nvidiaSmi, "compute-policy", "-i", uuid, "--set-timeslice",
        Integer.toString(number)));
  }

  private void run(List<String> command) throws IOException {
    LOG.info("Running {}", ProcessCommandRunner.commandLine(command));
    runner.run(command);
  }

  private static void checkUuids(List<String> gpuUuids) {
    for (String uuid : gpuUuids) {
      if (uuid == null || uuid.isBlank() || uuid.startsWith("-")) {
        throw new IllegalArgumentException("GPU UUID must be non-blank and not start with '-',"
            + " got \"" + uuid + "\"");
      }
    }
  }
}
