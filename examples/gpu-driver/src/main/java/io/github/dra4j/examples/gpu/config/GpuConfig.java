package io.github.dra4j.examples.gpu.config;

import io.github.dra4j.examples.gpu.devices.DeviceNames;
import io.github.dra4j.examples.gpu.sharing.SharingSetting;
import io.github.dra4j.resourceclaim.AllocatedDevice;
import io.github.dra4j.resourceclaim.config.ConfigProblem;
import io.github.dra4j.resourceclaim.config.DeviceConfig;
import java.util.List;
import java.util.Optional;

/**
 * The configuration of full GPUs and GPU partitions, {@code apiVersion: }{@value
 * GpuConfigs#API_VERSION}{@code , kind: GpuConfig}: how a claim's GPUs are shared.
 *
 * <pre>{@code
 * sharing:
 *   strategy: TimeSlicing | MPS
 *   timeSlicingConfig: {interval: Default | Short | Medium | Long}
 *   mpsConfig:
 *     defaultActiveThreadPercentage: 1..100
 *     defaultPinnedDeviceMemoryLimit: 10Gi
 *     defaultPerDevicePinnedMemoryLimit: {"GPU-<uuid>": 4Gi, "1": 8Gi}
 *     multiUser: true
 * }</pre>
 *
 * <p>Left out: {@code sharing} means TimeSlicing with interval Default, set on the GPUs (unlike
 * NVIDIA's {@link NvidiaGpuConfig}, where it means leaving the GPUs alone; a claim without any
 * configuration also leaves them alone); a strategy without its settings gets the defaults of
 * {@link Sharing#normalized()}. Only the chosen strategy's settings may be given. Pinned memory
 * limits are whole MiB, at least 1 MiB; per-device keys are a device's UUID or the decimal index
 * of a device in the group's UUIDs sorted ({@link PinnedMemoryLimits}). Does not apply to MIG
 * devices ({@link MigDeviceConfig} does).
 *
 * @param sharing how the GPUs are shared; null for the default
 */
public record GpuConfig(Sharing sharing) implements DeviceConfig<GpuConfig>, SharingConfig {

  /** The driver's default for a claim without configuration: TimeSlicing, interval Default. */
  public static final GpuConfig DEFAULT = new GpuConfig(null).normalized();

  @Override
  public GpuConfig normalized() {
    return new GpuConfig((sharing == null ? Sharing.of(Strategy.TimeSlicing) : sharing)
        .normalized());
  }

  @Override
  public List<ConfigProblem> validate() {
    return sharing.validate("sharing", List.of(Strategy.values()));
  }

  @Override
  public boolean appliesTo(AllocatedDevice device) {
    return !DeviceNames.isMig(device.device());
  }

  @Override
  public Optional<SharingSetting> sharingSetting() {
    return Optional.of(sharing.setting());
  }
}
