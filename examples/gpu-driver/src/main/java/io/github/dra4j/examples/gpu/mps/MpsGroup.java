package io.github.dra4j.examples.gpu.mps;

import io.github.dra4j.examples.gpu.config.PinnedMemoryLimits;
import io.github.dra4j.examples.gpu.sharing.SharingSetting;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One MPS daemon's work: its ID, the devices it serves and the control commands that configure
 * it, all derived from the claim before anything on the node changes (so a bad setting fails the
 * claim first). Immutable; stored as is in the driver's journal, so that a daemon can be started
 * again with the same commands after a plugin restart.
 *
 * @param id the daemon's ID
 * @param uuids the devices' UUIDs, sorted: the daemon's {@code CUDA_VISIBLE_DEVICES}
 * @param commands control commands sent to the daemon after it is ready, one line each
 * @param multiUser whether the daemon serves clients of several Linux users
 */
public record MpsGroup(MpsDaemonId id, List<String> uuids, List<String> commands,
    boolean multiUser) {

  /** The smallest pinned-memory limit MPS takes: 1 MiB. */
  static final long MIB = 1024L * 1024L;

  /**
   * Checks and copies the fields.
   *
   * @param id the daemon's ID
   * @param uuids the devices' UUIDs, sorted
   * @param commands control commands
   * @param multiUser whether clients of several users are served
   */
  public MpsGroup {
    Objects.requireNonNull(id, "id");
    uuids = List.copyOf(uuids);
    commands = List.copyOf(commands);
    if (uuids.isEmpty()) {
      throw new IllegalArgumentException("an MPS group needs at least one device");
    }
    for (String uuid : uuids) {
      if (uuid.isBlank() || uuid.startsWith("-") || uuid.contains(",")
          || uuid.chars().anyMatch(Character::isWhitespace)) {
        throw new IllegalArgumentException("device UUID \"" + uuid + "\" is not usable in"
            + " CUDA_VISIBLE_DEVICES");
      }
    }
    for (String command : commands) {
      if (command.contains("\n")) {
        throw new IllegalArgumentException("an MPS control command must be one line");
      }
    }
  }

  /**
   * The group of a claim's devices that share one MPS setting: the thread percentage, then one
   * pinned-memory limit per device (the setting's default, overridden per device), in whole MiB.
   *
   * @param claimUid the claim's UID
   * @param uuids the devices' UUIDs, in any order
   * @param setting the MPS setting
   * @return the group
   * @throws IllegalArgumentException naming the key or the value: a per-device key that is
   *     neither a UUID of the group nor an index into its sorted UUIDs, or a limit below 1 MiB
   */
  public static MpsGroup of(String claimUid, List<String> uuids, SharingSetting.Mps setting) {
    List<String> sorted = uuids.stream().distinct().sorted().toList();
    MpsDaemonId id = MpsDaemonId.of(claimUid, sorted);
    List<String> commands = new ArrayList<>();
    setting.activeThreadPercentage().ifPresent(
        percentage -> commands.add("set_default_active_thread_percentage " + percentage));
    // The keys are resolved by the configuration's own rules (a UUID, or an index into sorted).
    Map<String, Long> limits = PinnedMemoryLimits.perDevice(setting, sorted);
    for (String uuid : sorted) {
      Long bytes = limits.get(uuid);
      if (bytes != null) {
        long mib = bytes / MIB;
        if (mib < 1) {
          throw new IllegalArgumentException("MPS pinned memory limit " + bytes + " bytes for"
              + " device " + uuid + " is below the minimum of 1Mi");
        }
        commands.add("set_default_device_pinned_mem_limit " + uuid + " " + mib + "M");
      }
    }
    return new MpsGroup(id, sorted, commands, setting.multiUser());
  }

  /**
   * The daemon's directory.
   *
   * @param pluginDataDirectory the plugin's data directory
   * @return {@code <plugin dir>/mps/<id>}
   */
  public Path directory(Path pluginDataDirectory) {
    return MpsDirectories.root(pluginDataDirectory).resolve(id.value());
  }
}
