package io.github.dra4j.examples.gpu.config;

import io.github.dra4j.examples.gpu.devices.DeviceNames;
import io.github.dra4j.examples.gpu.sharing.SharingSetting;
import io.github.dra4j.resourceclaim.AllocatedDevice;
import io.github.dra4j.resourceclaim.config.ConfigProblem;
import io.github.dra4j.resourceclaim.config.DeviceConfig;
import java.util.List;
import java.util.Optional;

/**
 * NVIDIA's configuration of MIG devices, {@code apiVersion: }{@value
 * GpuConfigs#NVIDIA_API_VERSION}{@code , kind: MigDeviceConfig}, accepted so that claims written
 * for NVIDIA's DRA driver work unchanged with this one:
 *
 * <pre>{@code
 * sharing:
 *   strategy: TimeSlicing | MPS
 *   mpsConfig: {...as in GpuConfig}
 * }</pre>
 *
 * <p>There is no {@code timeSlicingConfig} (the time slice is a setting of the whole GPU; as in
 * NVIDIA's driver, it is refused as an unknown field), and TimeSlicing changes nothing on a MIG
 * device. Without {@code sharing} the devices are used as they are. Per-device MPS limits are
 * keyed by MIG device UUIDs or indices into the group's MIG device UUIDs sorted. Rules as in
 * {@link NvidiaSharing}.
 *
 * @param sharing how the MIG devices are shared; null to leave them alone
 */
public record NvidiaMigDeviceConfig(NvidiaSharing.MigDeviceSharing sharing)
    implements
      DeviceConfig<NvidiaMigDeviceConfig>,
      SharingConfig {

  @Override
  public NvidiaMigDeviceConfig normalized() {
    return sharing == null ? this
        : new NvidiaMigDeviceConfig(NvidiaSharing.normalized(sharing));
  }

  @Override
  public List<ConfigProblem> validate() {
    return sharing == null ? List.of() : NvidiaSharing.validate("sharing", sharing.strategy(),
        false, sharing.mpsConfig());
  }

  @Override
  public boolean appliesTo(AllocatedDevice device) {
    return DeviceNames.isMig(device.device());
  }

  @Override
  public Optional<SharingSetting> sharingSetting() {
    return sharing == null ? Optional.empty() : Optional.of(NvidiaSharing.setting(
        sharing.strategy(), null, sharing.mpsConfig()));
  }
}
