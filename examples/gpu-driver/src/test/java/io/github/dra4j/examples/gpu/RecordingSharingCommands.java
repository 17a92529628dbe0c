package io.github.dra4j.examples.gpu;

import io.github.dra4j.examples.gpu.mps.DaemonProcess;
import io.github.dra4j.examples.gpu.mps.LoggedMpsDaemons;
import io.github.dra4j.examples.gpu.mps.MpsDaemons;
import io.github.dra4j.examples.gpu.mps.MpsGroup;
import io.github.dra4j.examples.gpu.sharing.SharingCommands;
import io.github.dra4j.examples.gpu.sharing.SharingSetting;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;

/** Records the sharing commands the driver gives, and fails them on request. */
public final class RecordingSharingCommands implements SharingCommands {

  private final List<String> calls = new CopyOnWriteArrayList<>();
  private final List<String> mpsCalls = new CopyOnWriteArrayList<>();
  private volatile String failOn;
  private volatile boolean failResets;

  private final MpsDaemons mps = new MpsDaemons() {
    private final LoggedMpsDaemons logged = new LoggedMpsDaemons();

    @Override
    public Optional<DaemonProcess> start(MpsGroup group, Path pluginDataDirectory,
        Launched launched) throws IOException {
      mpsCalls.add("start " + group.uuids() + " " + group.commands());
      return logged.start(group, pluginDataDirectory, launched);
    }

    @Override
    public boolean isRunning(DaemonProcess daemon) {
      return false;
    }

    @Override
    public void stop(Path directory, Optional<DaemonProcess> daemon, OptionalLong launchedAfter)
        throws IOException {
      mpsCalls.add("stop " + directory.getFileName());
      logged.stop(directory, daemon, launchedAfter);
    }

    @Override
    public OptionalLong nowTicks() {
      return OptionalLong.empty();
    }
  };

  @Override
  public void apply(SharingSetting setting, List<String> gpuUuids) throws IOException {
    calls.add("apply " + setting + " " + gpuUuids);
    if (failOn != null && setting.toString().contains(failOn)) {
      throw new IOException("nvidia-smi exited with 3: refused " + setting);
    }
  }

  @Override
  public void reset(SharingSetting applied, List<String> gpuUuids) throws IOException {
    calls.add("reset " + gpuUuids);
    if (failResets) {
      throw new IOException("`nvidia-smi -i " + String.join(",", gpuUuids)
          + " -c DEFAULT` failed with exit code 3");
    }
  }

  @Override
  public MpsDaemons mps() {
    return mps;
  }

  /**
   * The commands given so far.
   *
   * @return {@code apply <setting> [uuids]} and {@code reset [uuids]}, in order
   */
  public List<String> calls() {
    return List.copyOf(calls);
  }

  /**
   * The MPS daemons started and stopped so far.
   *
   * @return {@code start [uuids] [commands]} and {@code stop <id>}, in order
   */
  public List<String> mpsCalls() {
    return List.copyOf(mpsCalls);
  }

  /**
   * Makes every later command whose setting contains a text fail.
   *
   * @param setting part of the setting's text
   */
  public void failOn(String setting) {
    failOn = setting;
  }

  /**
   * Makes every later reset fail (or succeed again).
   *
   * @param fail whether resets fail
   */
  public void failResets(boolean fail) {
    failResets = fail;
  }
}
