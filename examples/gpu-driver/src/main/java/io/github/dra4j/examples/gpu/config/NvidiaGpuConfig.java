package io.github.dra4j.examples.gpu.config;

import io.github.dra4j.examples.gpu.devices.DeviceNames;
import io.github.dra4j.examples.gpu.sharing.SharingSetting;
import io.github.dra4j.resourceclaim.AllocatedDevice;
import io.github.dra4j.resourceclaim.config.ConfigProblem;
import io.github.dra4j.resourceclaim.config.DeviceConfig;
import java.util.List;
import java.util.Optional;

/**
 * NVIDIA's configuration of full GPUs, {@code apiVersion: }{@value
 * GpuConfigs#NVIDIA_API_VERSION}{@code , kind: GpuConfig}, accepted so that claims written for
 * NVIDIA's DRA driver work unchanged with this one (named {@code gpu.nvidia.com}):
 *
 * <pre>{@code
 * sharing:
 *   strategy: TimeSlicing | MPS
 *   timeSlicingConfig: {interval: Default | Short | Medium | Long}
 *   mpsConfig:
 *     defaultActiveThreadPercentage: 0..100
 *     defaultPinnedDeviceMemoryLimit: 10Gi
 *     defaultPerDevicePinnedMemoryLimit: {"GPU-<uuid>": 4Gi, "1": 8Gi}
 *     multiUser: true
 * }</pre>
 *
 * <p>Without {@code sharing}, as in NVIDIA's driver, the GPUs are used as the node has them and
 * nothing is set. The rules where NVIDIA's API differs from the driver's own {@link GpuConfig}
 * are those of {@link NvidiaSharing}; both map onto the same {@link SharingSetting}.
 *
 * @param sharing how the GPUs are shared; null to leave them alone
 */
public record NvidiaGpuConfig(NvidiaSharing.GpuSharing sharing)
    implements
      DeviceConfig<NvidiaGpuConfig>,
      SharingConfig {

  @Override
  public NvidiaGpuConfig normalized() {
    return sharing == null ? this : new NvidiaGpuConfig(NvidiaSharing.normalized(sharing));
  }

  @Override
  public List<ConfigProblem> validate() {
    return sharing == null ? List.of() : NvidiaSharing.validate("sharing", sharing.strategy(),
        sharing.timeSlicingConfig() != null, sharing.mpsConfig());
  }

  @Override
  public boolean appliesTo(AllocatedDevice device) {
    return !DeviceNames.isMig(device.device());
  }

  @Override
  public Optional<SharingSetting> sharingSetting() {
    return sharing == null ? Optional.empty() : Optional.of(NvidiaSharing.setting(
        sharing.strategy(), sharing.timeSlicingConfig(), sharing.mpsConfig()));
  }
}
