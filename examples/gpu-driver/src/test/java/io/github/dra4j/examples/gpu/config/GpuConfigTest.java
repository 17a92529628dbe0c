package io.github.dra4j.examples.gpu.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.dra4j.examples.gpu.sharing.SharingSetting;
import io.github.dra4j.resourceclaim.AllocatedDevice;
import io.github.dra4j.resourceclaim.config.ConfigException;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The configuration API: strict decoding, the defaults left-out fields imply, every refusal. */
class GpuConfigTest {

  private static Object decode(String kind, String body) {
    return GpuConfigs.SCHEME.decode("{\"apiVersion\":\"" + GpuConfigs.API_VERSION
        + "\",\"kind\":\"" + kind + "\"" + (body.isEmpty() ? "" : "," + body) + "}");
  }

  private static SharingSetting setting(String body) {
    return ((GpuConfig) decode("GpuConfig", body)).sharing().setting();
  }

  @Test
  void leftOutFieldsGetTheDefaultsOfTheirStrategy() {
    assertThat(setting("")).isEqualTo(new SharingSetting.TimeSlicing(
        SharingSetting.TimeSliceInterval.Default));
    assertThat(setting("\"sharing\":{\"strategy\":\"MPS\"}"))
        .isEqualTo(SharingSetting.Mps.unlimited());
    assertThat(setting("\"sharing\":{\"strategy\":\"MPS\",\"mpsConfig\":{"
        + "\"defaultActiveThreadPercentage\":50,\"defaultPinnedDeviceMemoryLimit\":\"10Gi\"}}"))
        .isEqualTo(new SharingSetting.Mps(OptionalInt.of(50), OptionalLong.of(10L << 30),
            Map.of(), false));
    assertThat(GpuConfig.DEFAULT.sharing().setting()).isEqualTo(setting(""));
  }

  @Test
  void mpsTakesPerDeviceLimitsInWholeMebibytesAndMultiUser() {
    String uuid = "GPU-43a2e9d0-5c17-4b8f-a2d3-8e6f1c4b9a22";
    assertThat(setting("\"sharing\":{\"strategy\":\"MPS\",\"mpsConfig\":{"
        + "\"defaultPinnedDeviceMemoryLimit\":\"10G\",\"defaultPerDevicePinnedMemoryLimit\":"
        + "{\"" + uuid + "\":\"1.5Gi\",\"1\":\"1048577\"},\"multiUser\":true}}"))
        .isEqualTo(new SharingSetting.Mps(OptionalInt.empty(),
            OptionalLong.of(9536L << 20), // 10^10 bytes are 9536.7 MiB
            Map.of(uuid, 1536L << 20, "1", 1L << 20), true));
    assertThat(((GpuConfig) decode("GpuConfig", "\"sharing\":{\"strategy\":\"MPS\"}"))
        .sharingSetting()).contains(SharingSetting.Mps.unlimited());
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "\"sharing\":{\"strategy\":\"TimeSlicing\",\"mpsConfig\":{}}"
          + "|sharing.mpsConfig: only with strategy MPS, not TimeSlicing",
      "\"sharing\":{\"strategy\":\"MPS\",\"timeSlicingConfig\":{\"interval\":\"Long\"}}"
          + "|sharing.timeSlicingConfig: only with strategy TimeSlicing, not MPS",
      "\"sharing\":{\"strategy\":\"SpacePartitioning\"}|sharing.strategy",
      "\"sharing\":{\"strategy\":\"TimeSlicing\",\"spacePartitioningConfig\":"
          + "{\"partitionCount\":2}}|spacePartitioningConfig",
      "\"sharing\":{\"strategy\":\"MPS\",\"mpsConfig\":{\"defaultActiveThreadPercentage\":101}}"
          + "|sharing.mpsConfig.defaultActiveThreadPercentage: must be from 1 to 100, got 101",
      "\"sharing\":{\"strategy\":\"MPS\",\"mpsConfig\":{\"defaultPinnedDeviceMemoryLimit\":"
          + "\"-1Gi\"}}|sharing.mpsConfig.defaultPinnedDeviceMemoryLimit: want a positive",
      "\"sharing\":{\"strategy\":\"Fast\"}|sharing.strategy",
      "\"sharing\":{\"strategy\":\"MPS\",\"mpsConfig\":{\"defaultActiveThreadPercentage\":0}}"
          + "|sharing.mpsConfig.defaultActiveThreadPercentage: must be from 1 to 100, got 0",
      "\"sharing\":{\"strategy\":\"MPS\",\"mpsConfig\":{\"defaultPinnedDeviceMemoryLimit\":"
          + "\"512Ki\"}}|sharing.mpsConfig.defaultPinnedDeviceMemoryLimit: want a positive quantity"
          + " of bytes such as 10Gi, at least 1Mi, got \"512Ki\": less than 1Mi",
      "\"sharing\":{\"strategy\":\"MPS\",\"mpsConfig\":{\"defaultPerDevicePinnedMemoryLimit\":"
          + "{\"gpu0\":\"1Gi\"}}}|sharing.mpsConfig.defaultPerDevicePinnedMemoryLimit: key \"gpu0\""
          + " names no device",
      "\"sharing\":{\"strategy\":\"MPS\",\"mpsConfig\":{\"defaultPerDevicePinnedMemoryLimit\":"
          + "{\"1\":\"lots\"}}}|sharing.mpsConfig.defaultPerDevicePinnedMemoryLimit.1: want a"
          + " positive quantity of bytes such as 10Gi, at least 1Mi, got \"lots\"",
      "\"sharing\":{\"strategy\":\"MPS\",\"mpsConfig\":{\"defaultPerDevicePinnedMemoryLimit\":"
          + "{\"1\":1073741824}}}|sharing.mpsConfig.defaultPerDevicePinnedMemoryLimit.1: want a"
          + " string, got 1073741824",
      "\"sharing\":{\"strategy\":\"MPS\",\"mpsConfig\":{\"multiUser\":\"yes\"}}"
          + "|sharing.mpsConfig.multiUser: want a boolean, got \"yes\"",
      "\"sharing\":{\"strategy\":\"TimeSlicing\",\"timeSlicingConfig\":{\"interval\":\"Long\","
          + "\"extra\":1}}|extra",
  })
  void anInvalidGpuConfigIsRefusedNamingTheField(String body, String expected) {
    assertThatThrownBy(() -> decode("GpuConfig", body)).isInstanceOf(ConfigException.class)
        .hasMessageContaining(expected);
  }

  /**
   * A memory limit of a million digits once took minutes to read (a cheap way to stall the webhook
   * or a prepare); it is refused at once, and the message quotes only the start of the value.
   */
  @Test
  void aMemoryLimitOfAMillionDigitsIsRefusedAtOnceWithAShortMessage() {
    String limit = "1" + "0".repeat(1_000_000) + "Gi";
    long start = System.nanoTime();

    assertThatThrownBy(() -> decode("GpuConfig", "\"sharing\":{\"strategy\":\"MPS\","
        + "\"mpsConfig\":{\"defaultPinnedDeviceMemoryLimit\":\"" + limit + "\"}}"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("sharing.mpsConfig.defaultPinnedDeviceMemoryLimit: want a positive"
            + " quantity of bytes such as 10Gi, at least 1Mi, got \"1000")
        .hasMessageContaining("quantities must have at most 1000 digits, got 1000001")
        .satisfies(e -> assertThat(e.getMessage().length()).isLessThan(500));
    assertThat(java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start))
        .isLessThan(2000);
  }

  @Test
  void migDevicesTakeTimeSlicingWithoutAnIntervalOrMps() {
    MigDeviceConfig plain = (MigDeviceConfig) decode("MigDeviceConfig", "");
    assertThat(plain.sharing().strategy()).isEqualTo(Strategy.TimeSlicing);
    assertThatThrownBy(() -> decode("MigDeviceConfig",
        "\"sharing\":{\"strategy\":\"TimeSlicing\",\"timeSlicingConfig\":{\"interval\":\"Long\"}}"))
        .hasMessageContaining("sharing.timeSlicingConfig: not supported for MIG devices");
    assertThatThrownBy(() -> decode("MigDeviceConfig",
        "\"sharing\":{\"strategy\":\"SpacePartitioning\"}"))
        .hasMessageContaining("sharing.strategy").hasMessageContaining("SpacePartitioning");
  }

  @Test
  void eachTypeAppliesToItsOwnDevices() {
    AllocatedDevice gpu = AllocatedDevice.of("gpu", "node-1", "gpu-3");
    AllocatedDevice mig = AllocatedDevice.of("gpu", "node-1", "gpu-6-mig-1g10gb-19-2");
    assertThat(GpuConfig.DEFAULT.appliesTo(gpu)).isTrue();
    assertThat(GpuConfig.DEFAULT.appliesTo(mig)).isFalse();
    assertThat(new MigDeviceConfig(null).appliesTo(mig)).isTrue();
    assertThat(new MigDeviceConfig(null).appliesTo(gpu)).isFalse();
  }
}
