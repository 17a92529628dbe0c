package io.github.dra4j.resourceclaim.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationConfigurationBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClaimConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClaimConfigurationBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.github.dra4j.resourceclaim.config.TestConfigs.DeviceSetting;
import io.github.dra4j.resourceclaim.config.TestConfigs.GpuConfig;
import io.github.dra4j.resourceclaim.config.TestConfigs.NicConfig;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * A problem names the configuration entry where the user wrote it, and the DeviceClass or the
 * claim it is in, not the index the scheduler gave its copy in the allocation status.
 */
class ConfigOriginsTest {

  private static final String DRIVER = "gpu.example.com";
  private static final String GOOD_GPU = gpu(2);
  private static final String BAD_GPU = gpu(0);
  private static final String NIC = "{\"apiVersion\":\"" + TestConfigs.API
      + "\",\"kind\":\"NicConfig\",\"mtu\":\"9000\"}";

  private static String gpu(int replicas) {
    return "{\"apiVersion\":\"" + TestConfigs.API + "\",\"kind\":\"GpuConfig\",\"replicas\":"
        + replicas + "}";
  }

  private static Object parameters(String json) {
    return new JsonMapper().readValue(json, Object.class);
  }

  private static DeviceClaimConfiguration written(String json, String... requests) {
    return new DeviceClaimConfigurationBuilder().withRequests(requests).withNewOpaque()
        .withDriver(DRIVER).withParameters(parameters(json)).endOpaque().build();
  }

  private static DeviceAllocationConfiguration copied(String source, String json,
      String... requests) {
    return new DeviceAllocationConfigurationBuilder().withSource(source).withRequests(requests)
        .withNewOpaque().withDriver(DRIVER).withParameters(parameters(json)).endOpaque().build();
  }

  /**
   * Requests gpu (class gpu.example.com), nic (class nic.example.com) and alt (first available:
   * small of class small.example.com, large of class gpu.example.com; large was chosen).
   */
  private static ResourceClaim claim(List<DeviceClaimConfiguration> written,
      List<DeviceAllocationConfiguration> status) {
    return new ResourceClaimBuilder()
        .withNewMetadata().withNamespace("ns").withName("c").withUid("u").endMetadata()
        .withNewSpec().withNewDevices()
        .withRequests(new DeviceRequestBuilder().withName("gpu").withNewExactly()
            .withDeviceClassName("gpu.example.com").endExactly().build(),
            new DeviceRequestBuilder().withName("nic").withNewExactly()
                .withDeviceClassName("nic.example.com").endExactly().build(),
            new DeviceRequestBuilder().withName("alt")
                .addNewFirstAvailable().withName("small").withDeviceClassName("small.example.com")
                .endFirstAvailable()
                .addNewFirstAvailable().withName("large").withDeviceClassName("gpu.example.com")
                .endFirstAvailable().build())
        .withConfig(written).endDevices().endSpec()
        .withNewStatus().withNewAllocation().withNewDevices()
        .withResults(result("gpu", "gpu-0"), result("nic", "nic-0"), result("alt/large", "gpu-2"))
        .withConfig(status)
        .endDevices().endAllocation().endStatus().build();
  }

  private static io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult result(
      String request, String device) {
    return new DeviceRequestAllocationResultBuilder().withDriver(DRIVER).withRequest(request)
        .withPool("node-1").withDevice(device).build();
  }

  private static String errorOf(ResourceClaim claim) {
    ConfigResolver<DeviceSetting> resolver = ConfigResolver.of(TestConfigs.typedScheme(), DRIVER,
        List.of(GpuConfig.of(TestConfigs.Strategy.TimeSlicing, 1), new NicConfig("1500")));
    try {
      resolver.resolve(claim);
      return "resolved";
    } catch (ConfigException e) {
      return e.getMessage();
    }
  }

  @Test
  void claimEntryAfterAClassEntryIsNamedByTheClaimsOwnIndex() {
    // The user wrote the bad entry at spec.devices.config[0]; the class's entry comes first in
    // the status, so the copy is status.allocation.devices.config[1].
    ResourceClaim claim = claim(List.of(written(BAD_GPU, "gpu")),
        List.of(copied("FromClass", GOOD_GPU, "gpu", "alt/large"),
            copied("FromClaim", BAD_GPU, "gpu")));
    assertThat(errorOf(claim)).isEqualTo("ResourceClaim spec.devices.config[0].opaque.parameters"
        + ".replicas: must be at least 1, got 0");
  }

  @Test
  void classEntriesAreNamedByTheirClassAndTheirIndexInIt() {
    ResourceClaim claim = claim(List.of(written(NIC, "nic"), written(BAD_GPU, "gpu")),
        List.of(copied("FromClass", GOOD_GPU, "gpu", "alt/large"),
            copied("FromClass", BAD_GPU, "gpu", "alt/large"),
            copied("FromClass", BAD_GPU, "nic"),
            copied("FromClaim", NIC, "nic"),
            copied("FromClaim", BAD_GPU, "gpu")));
    assertThat(errorOf(claim)).isEqualTo(
        "DeviceClass gpu.example.com spec.config[1].opaque.parameters.replicas: must be at least"
            + " 1, got 0; DeviceClass nic.example.com spec.config[0].opaque.parameters.replicas:"
            + " must be at least 1, got 0; ResourceClaim spec.devices.config[1].opaque.parameters"
            + ".replicas: must be at least 1, got 0");
  }

  @Test
  void claimEntriesTheSchedulerDroppedAreStillCounted() {
    // Entry 0 names only the subrequest that was not chosen: the scheduler leaves it out, so
    // the user's entry 1 is the status's entry 0. Entry 1 covered every request and lost its
    // requests in the copy.
    ResourceClaim claim = claim(List.of(written(GOOD_GPU, "alt/small"),
        written(BAD_GPU, "gpu", "nic", "alt")),
        List.of(copied("FromClaim", BAD_GPU)));
    assertThat(errorOf(claim)).isEqualTo("ResourceClaim spec.devices.config[1].opaque.parameters"
        + ".replicas: must be at least 1, got 0");
  }

  @Test
  void withoutTheClaimSpecTheStatusPathIsKept() {
    ResourceClaim claim = claim(List.of(), List.of(copied("FromClass", GOOD_GPU, "gpu"),
        copied("FromClaim", BAD_GPU, "gpu")));
    claim.setSpec(null);
    assertThat(errorOf(claim)).startsWith("status.allocation.devices.config[1].opaque");
  }

  @Test
  void typedSchemeGivesGroupsOfItsTypeWithoutACast() {
    ResourceClaim claim = claim(List.of(written(NIC, "nic")),
        List.of(copied("FromClass", GOOD_GPU, "gpu", "alt/large"), copied("FromClaim", NIC,
            "nic")));
    List<ConfigGroup<DeviceSetting>> groups = ConfigResolver.of(TestConfigs.typedScheme(),
        DRIVER, List.<DeviceSetting> of(new NicConfig("1500"))).resolve(claim);
    List<String> seen = new ArrayList<>();
    for (ConfigGroup<DeviceSetting> group : groups) {
      DeviceSetting setting = group.config(); // no cast
      String what = setting instanceof GpuConfig gpu ? "gpu x" + gpu.replicas()
          : "nic mtu " + ((NicConfig) setting).mtu();
      seen.add(group.source() + " " + what);
    }
    assertThat(seen).containsExactly("CLASS gpu x2", "CLAIM nic mtu 9000");
    assertThatThrownBy(() -> TestConfigs.typedScheme().decode("{\"apiVersion\":\""
        + TestConfigs.API + "\",\"kind\":\"PlainConfig\",\"name\":\"x\"}"))
        .hasMessageContaining("unknown apiVersion");
  }
}
