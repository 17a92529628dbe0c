package io.github.dra4j.examples.gpu.prepare;

import io.github.dra4j.cdi.spec.ContainerEdits;
import io.github.dra4j.examples.gpu.devices.DeviceNames;
import io.github.dra4j.examples.gpu.devices.GpuDevice;
import io.github.dra4j.examples.gpu.sharing.SharingSetting;
import io.github.dra4j.resourceclaim.AllocatedDevice;
import java.util.Map;

/**
 * The environment a container gets from one prepared device, so a workload (and a demo) can see
 * what it got. For device {@code gpu-3} ({@code <ID>} = {@code 3}; {@code gpu-3-partition-1}
 * gives {@code 3_PARTITION_1}):
 *
 * <ul>
 *   <li>{@code GPU_DEVICE_<ID>} the device's name, {@code GPU_DEVICE_<ID>_UUID}, {@code
 *       GPU_DEVICE_<ID>_TYPE} and {@code GPU_DEVICE_<ID>_RESOURCE_CLAIM} (the claim's UID);
 *   <li>{@code GPU_DEVICE_<ID>_SHARING_STRATEGY} and the strategy's setting: {@code
 *       _TIMESLICE_INTERVAL}, or {@code _MPS_ACTIVE_THREAD_PERCENTAGE} and {@code
 *       _MPS_PINNED_MEMORY_LIMIT} where set;
 *   <li>for a share of a device allocated several times: {@code _SHARE_ID} and each consumed
 *       capacity, {@code _MEMORY} and {@code _COMPUTE}.
 * </ul>
 */
final class ContainerEnvironment {

  private ContainerEnvironment() {}

  static void add(ContainerEdits.Builder edits, GpuDevice device, AllocatedDevice allocated,
      String claimUid, SharingSetting setting) {
    String prefix = "GPU_DEVICE_" + DeviceNames.envSuffix(device.name());
    edits.env(prefix, device.name())
        .env(prefix + "_UUID", device.uuid())
        .env(prefix + "_TYPE", device.type().value())
        .env(prefix + "_RESOURCE_CLAIM", claimUid);
    if (setting instanceof SharingSetting.TimeSlicing t) {
      edits.env(prefix + "_SHARING_STRATEGY", "TimeSlicing")
          .env(prefix + "_TIMESLICE_INTERVAL", t.interval().name());
    } else if (setting instanceof SharingSetting.Mps m) {
      edits.env(prefix + "_SHARING_STRATEGY", "MPS");
      m.activeThreadPercentage().ifPresent(percentage -> edits
          .env(prefix + "_MPS_ACTIVE_THREAD_PERCENTAGE", Integer.toString(percentage)));
      m.pinnedMemoryLimitBytes()
          .ifPresent(bytes -> edits.env(prefix + "_MPS_PINNED_MEMORY_LIMIT", Long.toString(bytes)));
    }
    if (allocated.shareId() != null) {
      edits.env(prefix + "_SHARE_ID", allocated.shareId());
      for (Map.Entry<String, String> consumed : allocated.consumedCapacity().entrySet()) {
        edits.env(prefix + "_" + consumed.getKey().toUpperCase(java.util.Locale.ROOT),
            consumed.getValue());
      }
    }
  }
}
