package io.github.dra4j.examples.gpu.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.dra4j.examples.gpu.sharing.SharingSetting;
import io.github.dra4j.examples.gpu.sharing.SharingSetting.TimeSliceInterval;
import io.github.dra4j.resourceclaim.AllocatedDevice;
import io.github.dra4j.resourceclaim.config.ConfigException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * NVIDIA's configuration API ({@code resource.nvidia.com/v1beta1}) through the driver's one
 * scheme: NVIDIA's field names and defaults mapped onto the same sharing settings as the driver's
 * own API, NVIDIA's rules where they differ, and every refusal naming the field and the value.
 */
class NvidiaConfigTest {

  private static final String GPU_A = "GPU-43a2e9d0-5c17-4b8f-a2d3-8e6f1c4b9a22";
  private static final String GPU_B = "GPU-1b7f3c52-8a44-4e0d-b6c1-3f9d2a7e0b11";
  private static final long MIB = 1L << 20;

  private static Object decode(String kind, String body) {
    return GpuConfigs.SCHEME.decode("{\"apiVersion\":\"resource.nvidia.com/v1beta1\",\"kind\":\""
        + kind + "\"" + (body.isEmpty() ? "" : "," + body) + "}");
  }

  private static Optional<SharingSetting> gpu(String body) {
    return ((NvidiaGpuConfig) decode("GpuConfig", body)).sharingSetting();
  }

  private static Optional<SharingSetting> mig(String body) {
    return ((NvidiaMigDeviceConfig) decode("MigDeviceConfig", body)).sharingSetting();
  }

  @Test
  void withoutSharingTheDevicesAreLeftAloneAsInNvidiasDriver() {
    assertThat(gpu("")).isEmpty();
    assertThat(mig("")).isEmpty();
  }

  @Test
  void timeSlicingTakesNvidiasIntervalsAndDefaultsToDefault() {
    SharingSetting byDefault = new SharingSetting.TimeSlicing(TimeSliceInterval.Default);
    assertThat(gpu("\"sharing\":{\"strategy\":\"TimeSlicing\"}")).contains(byDefault);
    assertThat(gpu("\"sharing\":{\"strategy\":\"TimeSlicing\",\"timeSlicingConfig\":{}}"))
        .contains(byDefault);
    for (TimeSliceInterval interval : TimeSliceInterval.values()) {
      assertThat(gpu("\"sharing\":{\"strategy\":\"TimeSlicing\",\"timeSlicingConfig\":"
          + "{\"interval\":\"" + interval + "\"}}"))
          .contains(new SharingSetting.TimeSlicing(interval));
    }
    assertThat(mig("\"sharing\":{\"strategy\":\"TimeSlicing\"}")).contains(byDefault);
  }

  @Test
  void mpsTakesNvidiasFieldsWithLimitsInWholeMebibytes() {
    assertThat(gpu("\"sharing\":{\"strategy\":\"MPS\"}"))
        .contains(SharingSetting.Mps.unlimited());
    assertThat(gpu("\"sharing\":{\"strategy\":\"MPS\",\"mpsConfig\":{"
        + "\"defaultActiveThreadPercentage\":0,"
        + "\"defaultPinnedDeviceMemoryLimit\":\"10Gi\","
        + "\"defaultPerDevicePinnedMemoryLimit\":{\"0\":\"5Gi\",\"" + GPU_A + "\":1.5e9,"
        + "\"1\":1048577},"
        + "\"multiUser\":true}}"))
        .contains(new SharingSetting.Mps(OptionalInt.of(0), OptionalLong.of(10240 * MIB),
            Map.of("0", 5120 * MIB, GPU_A, 1430 * MIB, "1", MIB), true));
    assertThat(mig("\"sharing\":{\"strategy\":\"MPS\",\"mpsConfig\":{"
        + "\"defaultActiveThreadPercentage\":100,\"defaultPinnedDeviceMemoryLimit\":1073741824}}"))
        .contains(new SharingSetting.Mps(OptionalInt.of(100), OptionalLong.of(1024 * MIB),
            Map.of(), false));
  }

  @Test
  void bothApisReachTheSameSetting() {
    String mps = "\"sharing\":{\"strategy\":\"MPS\",\"mpsConfig\":{"
        + "\"defaultActiveThreadPercentage\":25,\"defaultPinnedDeviceMemoryLimit\":\"2Gi\","
        + "\"defaultPerDevicePinnedMemoryLimit\":{\"" + GPU_B + "\":\"1Gi\"},\"multiUser\":true}}";
    GpuConfig ours = (GpuConfig) GpuConfigs.SCHEME.decode("{\"apiVersion\":\""
        + GpuConfigs.API_VERSION + "\",\"kind\":\"GpuConfig\"," + mps + "}");
    assertThat(gpu(mps)).isEqualTo(ours.sharingSetting()).isPresent();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "GpuConfig|\"sharing\":{}|parameters.sharing.strategy: required, one of [TimeSlicing, MPS]",
      "GpuConfig|\"sharing\":{\"strategy\":\"Fabric\"}|parameters.sharing.strategy: \"Fabric\" is"
          + " not supported by this driver, want one of [TimeSlicing, MPS]",
      "GpuConfig|\"sharing\":{\"strategy\":\"SpacePartitioning\"}|parameters.sharing.strategy:"
          + " unknown GPU sharing strategy \"SpacePartitioning\", want one of [TimeSlicing, MPS]",
      "GpuConfig|\"sharing\":{\"strategy\":\"TimeSlicing\",\"timeSlicingConfig\":{\"interval\":"
          + "\"VeryLong\"}}|parameters.sharing.timeSlicingConfig.interval: unknown value"
          + " \"VeryLong\", want one of \"Default\", \"Short\", \"Medium\", \"Long\"",
      "GpuConfig|\"sharing\":{\"strategy\":\"TimeSlicing\",\"mpsConfig\":{}}"
          + "|parameters.sharing.mpsConfig: only with strategy MPS, not TimeSlicing",
      "GpuConfig|\"sharing\":{\"strategy\":\"MPS\",\"timeSlicingConfig\":{\"interval\":\"Long\"}}"
          + "|parameters.sharing.timeSlicingConfig: only with strategy TimeSlicing, not MPS",
      "GpuConfig|\"sharing\":{\"strategy\":\"MPS\",\"mpsConfig\":{"
          + "\"defaultActiveThreadPercentage\":101}}|parameters.sharing.mpsConfig"
          + ".defaultActiveThreadPercentage: must be from 0 to 100, got 101",
      "MigDeviceConfig|\"sharing\":{\"strategy\":\"MPS\",\"mpsConfig\":{"
          + "\"defaultActiveThreadPercentage\":-1}}|parameters.sharing.mpsConfig"
          + ".defaultActiveThreadPercentage: must be from 0 to 100, got -1",
      "GpuConfig|\"sharing\":{\"strategy\":\"MPS\",\"mpsConfig\":{"
          + "\"defaultPinnedDeviceMemoryLimit\":\"512Ki\"}}|parameters.sharing.mpsConfig"
          + ".defaultPinnedDeviceMemoryLimit: want a positive quantity of bytes such as 10Gi,"
          + " at least 1Mi, got \"512Ki\": less than 1Mi, and limits are whole MiB, rounded down",
      "GpuConfig|\"sharing\":{\"strategy\":\"MPS\",\"mpsConfig\":{"
          + "\"defaultPinnedDeviceMemoryLimit\":\"ten gigs\"}}|parameters.sharing.mpsConfig"
          + ".defaultPinnedDeviceMemoryLimit: want a positive quantity of bytes such as 10Gi,"
          + " at least 1Mi, got \"ten gigs\": quantities must match",
      "GpuConfig|\"sharing\":{\"strategy\":\"MPS\",\"mpsConfig\":{"
          + "\"defaultPinnedDeviceMemoryLimit\":\"-1Gi\"}}|parameters.sharing.mpsConfig"
          + ".defaultPinnedDeviceMemoryLimit: want a positive quantity of bytes such as 10Gi,"
          + " at least 1Mi, got \"-1Gi\"",
      "GpuConfig|\"sharing\":{\"strategy\":\"MPS\",\"mpsConfig\":{"
          + "\"defaultPinnedDeviceMemoryLimit\":\"9Ei\"}}|got \"9Ei\": more than",
      "GpuConfig|\"sharing\":{\"strategy\":\"MPS\",\"mpsConfig\":{"
          + "\"defaultPinnedDeviceMemoryLimit\":{\"size\":1}}}|parameters.sharing.mpsConfig"
          + ".defaultPinnedDeviceMemoryLimit: want a quantity such as 10Gi or a number of bytes,"
          + " got an object",
      "GpuConfig|\"sharing\":{\"strategy\":\"MPS\",\"mpsConfig\":{"
          + "\"defaultPerDevicePinnedMemoryLimit\":{\"first\":\"1Gi\"}}}|parameters.sharing"
          + ".mpsConfig.defaultPerDevicePinnedMemoryLimit: key \"first\" names no device: want a"
          + " GPU or MIG device UUID",
      "GpuConfig|\"sharing\":{\"strategy\":\"MPS\",\"mpsConfig\":{"
          + "\"defaultPerDevicePinnedMemoryLimit\":{\"1\":true}}}|parameters.sharing.mpsConfig"
          + ".defaultPerDevicePinnedMemoryLimit.1: want a quantity such as 10Gi or a number of"
          + " bytes, got a boolean",
      "GpuConfig|\"sharing\":{\"strategy\":\"MPS\",\"mpsConfig\":{\"multiUser\":1}}"
          + "|parameters.sharing.mpsConfig.multiUser: want a boolean, got 1",
      "GpuConfig|\"sharing\":{\"strategy\":\"MPS\",\"mpsConfig\":{\"pinnedLimit\":\"1Gi\"}}"
          + "|parameters.sharing.mpsConfig: unknown field \"pinnedLimit\"",
      "MigDeviceConfig|\"sharing\":{\"strategy\":\"TimeSlicing\",\"timeSlicingConfig\":"
          + "{\"interval\":\"Long\"}}|parameters.sharing: unknown field \"timeSlicingConfig\"",
      "VfioDeviceConfig|\"iommu\":{\"backendPolicy\":\"PreferIommuFD\"}|parameters.kind:"
          + " \"VfioDeviceConfig\" of resource.nvidia.com/v1beta1 is not supported by this"
          + " driver: it has no VFIO passthrough devices",
      "ComputeDomainChannelConfig|\"domainID\":\"abc\"|parameters.kind:"
          + " \"ComputeDomainChannelConfig\" of resource.nvidia.com/v1beta1 is not supported by"
          + " this driver",
      "ComputeDomainDaemonConfig||parameters.kind: \"ComputeDomainDaemonConfig\" of"
          + " resource.nvidia.com/v1beta1 is not supported by this driver",
      "LocalIPCConfig||parameters.kind: \"LocalIPCConfig\" of resource.nvidia.com/v1beta1 is not"
          + " supported by this driver",
      "GpuConfigs||parameters: unknown apiVersion \"resource.nvidia.com/v1beta1\" and kind"
          + " \"GpuConfigs\"; known:",
  })
  void anInvalidConfigIsRefusedNamingTheFieldAndTheValue(String kind, String body,
      String expected) {
    assertThatThrownBy(() -> decode(kind, body == null ? "" : body))
        .isInstanceOf(ConfigException.class).hasMessageContaining(expected);
  }

  @Test
  void aHugeMapOfPerDeviceLimitsIsRefusedAsAWhole() {
    StringBuilder limits = new StringBuilder();
    for (int i = 0; i < 1000; i++) {
      limits.append(i == 0 ? "" : ",").append("\"k").append(i).append("\":[]");
    }
    assertThatThrownBy(() -> decode("GpuConfig", "\"sharing\":{\"strategy\":\"MPS\","
        + "\"mpsConfig\":{\"defaultPerDevicePinnedMemoryLimit\":{" + limits + "}}}"))
        .isInstanceOf(ConfigException.class)
        .hasMessage("parameters.sharing.mpsConfig.defaultPerDevicePinnedMemoryLimit: at most 128"
            + " entries, got 1000");
  }

  @Test
  void eachNvidiaKindAppliesToItsOwnDevices() {
    AllocatedDevice gpu = AllocatedDevice.of("gpu", "node-1", "gpu-3");
    AllocatedDevice mig = AllocatedDevice.of("gpu", "node-1", "gpu-6-mig-1g10gb-19-2");
    assertThat(new NvidiaGpuConfig(null).appliesTo(gpu)).isTrue();
    assertThat(new NvidiaGpuConfig(null).appliesTo(mig)).isFalse();
    assertThat(new NvidiaMigDeviceConfig(null).appliesTo(mig)).isTrue();
    assertThat(new NvidiaMigDeviceConfig(null).appliesTo(gpu)).isFalse();
  }

  @Test
  void perDeviceKeysResolveToTheGroupsSortedUuidsAtPrepare() {
    SharingSetting.Mps mps = new SharingSetting.Mps(OptionalInt.empty(),
        OptionalLong.of(4 * MIB), Map.of("0", MIB, GPU_A, 2 * MIB), false);
    // Sorted: GPU_B (1b7f...) is index 0, GPU_A (43a2...) index 1.
    assertThat(PinnedMemoryLimits.perDevice(mps, List.of(GPU_A, GPU_B)))
        .isEqualTo(Map.of(GPU_B, MIB, GPU_A, 2 * MIB));
    assertThat(PinnedMemoryLimits.perDevice(SharingSetting.Mps.unlimited(), List.of(GPU_A)))
        .isEmpty();

    assertThatThrownBy(() -> PinnedMemoryLimits.perDevice(mps, List.of(GPU_A)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("mpsConfig.defaultPerDevicePinnedMemoryLimit: keys \"0\" and \"" + GPU_A
            + "\" both name device " + GPU_A + "; give one limit per device");
    SharingSetting.Mps outside = new SharingSetting.Mps(OptionalInt.empty(),
        OptionalLong.empty(), Map.of("2", MIB), false);
    assertThatThrownBy(() -> PinnedMemoryLimits.perDevice(outside, List.of(GPU_A, GPU_B)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("mpsConfig.defaultPerDevicePinnedMemoryLimit: key \"2\" names no device of"
            + " this configuration's group [" + GPU_B + ", " + GPU_A + "]; want one of their"
            + " UUIDs or an index from 0 to 1");
    SharingSetting.Mps stranger = new SharingSetting.Mps(OptionalInt.empty(),
        OptionalLong.empty(), Map.of("GPU-00000000-0000-0000-0000-000000000000", MIB), false);
    assertThatThrownBy(() -> PinnedMemoryLimits.perDevice(stranger, List.of(GPU_A)))
        .hasMessageContaining("key \"GPU-00000000-0000-0000-0000-000000000000\" names no device");
  }

  @Test
  void keysOfUuidShapeOrDecimalIndexCanNameADevice() {
    assertThat(List.of(GPU_A, "MIG-6d0a1b2c-3d4e-5f60-8a1b-2c3d4e5f6001",
        "MIG-GPU-d1a9c4e6-3b7f-4d28-9e5a-5f2c8b0d1a77/7/0", "0", "12"))
        .allMatch(PinnedMemoryLimits::isDeviceKey);
    assertThat(List.of("", "-1", "+1", "1.0", "12345", "gpu-0", "GPU-xyz",
        GPU_A + "\n", "MIG-GPU-d1a9c4e6-3b7f-4d28-9e5a-5f2c8b0d1a77"))
        .noneMatch(PinnedMemoryLimits::isDeviceKey);
  }
}
