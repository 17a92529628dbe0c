package io.github.dra4j.examples.gpu.config;

import io.github.dra4j.examples.gpu.devices.DeviceNames;
import io.github.dra4j.examples.gpu.sharing.SharingSetting;
import io.github.dra4j.resourceclaim.AllocatedDevice;
import io.github.dra4j.resourceclaim.config.ConfigProblem;
import io.github.dra4j.resourceclaim.config.DeviceConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The configuration of MIG devices, {@code apiVersion: }{@value GpuConfigs#API_VERSION}{@code ,
 * kind: MigDeviceConfig}: like {@link GpuConfig}, but a MIG device is already a fixed slice of a
 * GPU, so only TimeSlicing (without an interval: the time slice is the whole GPU's setting) and
 * MPS apply, with the settings of {@link GpuConfig}; the per-device limits of MPS are keyed by
 * MIG device UUIDs ({@code MIG-...}) or indices into the group's MIG device UUIDs sorted.
 * Without {@code sharing}: TimeSlicing, which changes nothing on the device. NVIDIA's form is
 * {@link NvidiaMigDeviceConfig}.
 *
 * @param sharing how the MIG devices are shared; null for TimeSlicing
 */
public record MigDeviceConfig(Sharing sharing)
    implements
      DeviceConfig<MigDeviceConfig>,
      SharingConfig {

  @Override
  public MigDeviceConfig normalized() {
    Sharing given = sharing == null ? Sharing.of(Strategy.TimeSlicing) : sharing;
    if (given.strategy() == Strategy.TimeSlicing && given.timeSlicingConfig() == null) {
      return new MigDeviceConfig(given); // no interval: the GPU's own setting stays
    }
    return new MigDeviceConfig(given.normalized());
  }

  @Override
  public List<ConfigProblem> validate() {
    List<ConfigProblem> problems = new ArrayList<>(
        sharing.validate("sharing", List.of(Strategy.TimeSlicing, Strategy.MPS)));
    if (sharing.timeSlicingConfig() != null) {
      problems.add(ConfigProblem.of("sharing.timeSlicingConfig",
          "not supported for MIG devices: the time slice is a setting of the whole GPU"));
    }
    return problems;
  }

  @Override
  public boolean appliesTo(AllocatedDevice device) {
    return DeviceNames.isMig(device.device());
  }

  @Override
  public Optional<SharingSetting> sharingSetting() {
    return Optional.of(sharing.setting());
  }
}
