package io.github.dra4j.examples.gpu;

import io.github.dra4j.examples.gpu.sharing.SharingCommands;
import io.github.dra4j.examples.gpu.sharing.SharingSetting;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Records the sharing commands the driver gives, and fails them on request. */
final class RecordingSharingCommands implements SharingCommands {

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

  List<String> calls() {
    return List.copyOf(calls);
  }

  void failOn(String setting) {
    failOn = setting;
  }
}
