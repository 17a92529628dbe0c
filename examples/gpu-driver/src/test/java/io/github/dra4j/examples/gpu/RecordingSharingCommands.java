package io.github.dra4j.examples.gpu;

import io.github.dra4j.examples.gpu.sharing.SharingCommands;
import io.github.dra4j.examples.gpu.sharing.SharingSetting;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Records the sharing commands the driver gives, and fails them on request. */
public final class RecordingSharingCommands implements SharingCommands {

  private final List<String> calls = new CopyOnWriteArrayList<>();
  private volatile String failOn;

  @Override
  public void apply(SharingSetting setting, List<String> gpuUuids) throws IOException {
    calls.add("apply " + setting + " " + gpuUuids);
    if (failOn != null && setting.toString().contains(failOn)) {
      throw new IOException("nvidia-smi exited with 3: refused " + setting);
    }
  }

  @Override
  public void reset(List<String> gpuUuids) {
    calls.add("reset " + gpuUuids);
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
   * Makes every later command whose setting contains a text fail.
   *
   * @param setting part of the setting's text
   */
  public void failOn(String setting) {
    failOn = setting;
  }
}
