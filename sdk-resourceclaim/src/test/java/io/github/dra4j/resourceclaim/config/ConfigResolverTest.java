package io.github.dra4j.resourceclaim.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationConfigurationBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.github.dra4j.resourceclaim.config.TestConfigs.GpuConfig;
import io.github.dra4j.resourceclaim.config.TestConfigs.NicConfig;
import io.github.dra4j.resourceclaim.config.TestConfigs.Strategy;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.json.JsonMapper;

class ConfigResolverTest {

  private static final String DRIVER = "gpu.example.com";
  private static final List<Object> DEFAULTS = List.of(GpuConfig.of(Strategy.TimeSlicing, 1),
      new NicConfig("1500"));

  /** This driver's results gpu-0, gpu-1 (request gpu), gpu-2 (alt/large), nic-0 (nic). */
  private static ResourceClaim claim(List<DeviceAllocationConfiguration> configs) {
    return new ResourceClaimBuilder()
        .withNewMetadata().withNamespace("ns").withName("c").withUid("u").endMetadata()
        .withNewStatus().withNewAllocation().withNewDevices()
        .withResults(result(DRIVER, "gpu", "gpu-0"), result(DRIVER, "gpu", "gpu-1"),
            result("other.example.com", "gpu", "x-0"), result(DRIVER, "alt/large", "gpu-2"),
            result(DRIVER, "nic", "nic-0"))
        .withConfig(configs)
        .endDevices().endAllocation().endStatus().build();
  }

  private static DeviceRequestAllocationResult result(String driver, String request,
      String device) {
    return new DeviceRequestAllocationResultBuilder().withDriver(driver).withRequest(request)
        .withPool("node-1").withDevice(device).build();
  }

  private static DeviceAllocationConfiguration entry(String source, String driver, String json,
      String... requests) {
    try {
      Object parameters = new JsonMapper().readValue(json, Object.class);
      return new DeviceAllocationConfigurationBuilder().withSource(source)
          .withRequests(requests).withNewOpaque().withDriver(driver).withParameters(parameters)
          .endOpaque().build();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static DeviceAllocationConfiguration gpu(String source, int replicas,
      String... requests) {
    return entry(source, DRIVER, "{\"apiVersion\":\"" + TestConfigs.API
        + "\",\"kind\":\"GpuConfig\",\"replicas\":" + replicas + "}", requests);
  }

  private static DeviceAllocationConfiguration nic(String source, String... requests) {
    return entry(source, DRIVER, "{\"apiVersion\":\"" + TestConfigs.API
        + "\",\"kind\":\"NicConfig\",\"mtu\":\"9000\"}", requests);
  }

  private static String describe(List<ConfigGroup<Object>> groups) {
    return groups.stream().map(g -> g.source() + "[" + g.index() + "]: "
        + g.devices().stream().map(d -> d.device()).collect(Collectors.joining(",")))
        .collect(Collectors.joining(" | "));
  }

  private static final String C = "status.allocation.devices.config";

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("defaults only, each type to its devices", List.of(), DEFAULTS,
            "DRIVER_DEFAULT[0]: gpu-0,gpu-1,gpu-2 | DRIVER_DEFAULT[1]: nic-0"),
        Arguments.of("claim beats class, two results under one config form one group",
            List.of(gpu("FromClaim", 3, "gpu"), gpu("FromClass", 2)), DEFAULTS,
            "DRIVER_DEFAULT[1]: nic-0 | CLASS[1]: gpu-2 | CLAIM[0]: gpu-0,gpu-1"),
        Arguments.of("class beats defaults",
            List.of(gpu("FromClass", 2, "alt")), DEFAULTS,
            "DRIVER_DEFAULT[0]: gpu-0,gpu-1 | DRIVER_DEFAULT[1]: nic-0 | CLASS[0]: gpu-2"),
        Arguments.of("later beats earlier in one source",
            List.of(gpu("FromClaim", 2, "gpu"), gpu("FromClaim", 3, "gpu")), DEFAULTS,
            "DRIVER_DEFAULT[0]: gpu-2 | DRIVER_DEFAULT[1]: nic-0 | CLAIM[1]: gpu-0,gpu-1"),
        Arguments.of("later catch-all beats earlier specific in one source",
            List.of(gpu("FromClass", 2, "gpu"), gpu("FromClass", 3)), DEFAULTS,
            "DRIVER_DEFAULT[1]: nic-0 | CLASS[1]: gpu-0,gpu-1,gpu-2"),
        Arguments.of("a request covers its sub-requests",
            List.of(gpu("FromClaim", 2, "alt")), DEFAULTS,
            "DRIVER_DEFAULT[0]: gpu-0,gpu-1 | DRIVER_DEFAULT[1]: nic-0 | CLAIM[0]: gpu-2"),
        Arguments.of("a sub-request covers only itself",
            List.of(gpu("FromClaim", 2, "alt/small"), gpu("FromClaim", 3, "alt/large")),
            DEFAULTS,
            "DRIVER_DEFAULT[0]: gpu-0,gpu-1 | DRIVER_DEFAULT[1]: nic-0 | CLAIM[1]: gpu-2"),
        Arguments.of("a catch-all of the wrong type is passed over",
            List.of(gpu("FromClaim", 2, "gpu"), nic("FromClaim")), DEFAULTS,
            "DRIVER_DEFAULT[0]: gpu-2 | CLAIM[0]: gpu-0,gpu-1 | CLAIM[1]: nic-0"),
        Arguments.of("a request-specific config of the wrong type is an error",
            List.of(nic("FromClaim", "gpu")), DEFAULTS,
            "error: " + C + "[0]: " + TestConfigs.API + " NicConfig does not apply to device"
                + " node-1/gpu-0 (request \"gpu\"); " + C + "[0]: " + TestConfigs.API
                + " NicConfig does not apply to device node-1/gpu-1 (request \"gpu\")"),
        Arguments.of("other drivers' configs are ignored, even broken ones",
            List.of(entry("FromClaim", "other.example.com", "{\"x\":1}"),
                entry("FromClaim", "other.example.com", "[]", "gpu")),
            DEFAULTS,
            "DRIVER_DEFAULT[0]: gpu-0,gpu-1,gpu-2 | DRIVER_DEFAULT[1]: nic-0"),
        Arguments.of("a config without opaque part that could be ours is an error",
            List.of(gpu("FromClaim", 2),
                new DeviceAllocationConfigurationBuilder().withSource("FromClaim")
                    .withRequests("elsewhere").build(),
                new DeviceAllocationConfigurationBuilder().withSource("FromClaim")
                    .withRequests("nic").build()),
            DEFAULTS,
            "error: " + C + "[2]: not an opaque configuration; driver gpu.example.com reads"
                + " only opaque configurations"),
        Arguments.of("every problem of the claim is listed",
            List.of(gpu("FromClass", 0),
                entry("FromClaim", DRIVER, "{\"apiVersion\":\"" + TestConfigs.API
                    + "\",\"kind\":\"GpuConfig\",\"replicass\":2}", "GPU"),
                gpu("Elsewhere", 2)),
            DEFAULTS,
            "error: " + C + "[0].opaque.parameters.replicas: must be at least 1, got 0; "
                + C + "[1].requests[0]: request reference \"GPU\": request name: Invalid value:"
                + " \"GPU\": a lowercase RFC 1123 label must consist of lower case alphanumeric"
                + " characters or '-', and must start and end with an alphanumeric character"
                + " (e.g. 'my-name',  or '123-abc', regex used for validation is"
                + " '[a-z0-9]([-a-z0-9]*[a-z0-9])?'); "
                + C + "[1].opaque.parameters: unknown field \"replicass\"; "
                + C + "[2].source: unknown value \"Elsewhere\", want \"FromClass\" or"
                + " \"FromClaim\""),
        Arguments.of("a device no config applies to is an error",
            List.of(gpu("FromClaim", 2)), List.of(),
            "error: no configuration of driver gpu.example.com applies to device node-1/nic-0"
                + " (request \"nic\")"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void precedence(String name, List<DeviceAllocationConfiguration> configs,
      List<Object> defaults, String expected) {
    ConfigResolver<Object> resolver = ConfigResolver.of(TestConfigs.scheme(), DRIVER, defaults);
    String actual;
    try {
      actual = describe(resolver.resolve(claim(configs)));
    } catch (ConfigException e) {
      actual = "error: " + e.getMessage();
    }
    assertThat(actual).isEqualTo(expected);
  }

  @Test
  void groupsCarryTheDecodedNormalizedConfig() {
    List<ConfigGroup<Object>> groups = ConfigResolver.of(TestConfigs.scheme(), DRIVER, DEFAULTS)
        .resolve(claim(List.of(gpu("FromClaim", 4, "gpu"))));
    ConfigGroup<Object> claimGroup = groups.get(groups.size() - 1);
    assertThat(claimGroup.source()).isEqualTo(ConfigSource.CLAIM);
    assertThat(claimGroup.config()).isEqualTo(
        new GpuConfig(new TestConfigs.Sharing(Strategy.TimeSlicing, null), 4, List.of()));
    assertThat(groups.stream().mapToInt(g -> g.devices().size()).sum()).isEqualTo(4);
  }

  @Test
  void invalidDefaultsAreRefusedWhenTheResolverIsBuilt() {
    assertThatThrownBy(() -> ConfigResolver.of(TestConfigs.scheme(), DRIVER,
        List.of(new NicConfig("1500"), GpuConfig.of(Strategy.Mps, 1))))
        .isInstanceOf(ConfigException.class)
        .hasMessage("defaults[1].parameters.replicas: MPS needs at least 2 replicas, got 1");
    assertThatThrownBy(() -> ConfigResolver.of(TestConfigs.scheme(), DRIVER, List.of("x")))
        .hasMessage("type java.lang.String is not registered with this scheme");
  }

  @Test
  void parametersAreDecodedFromTheFabric8MapLikeFromText() {
    Map<String, Object> parameters = Map.of("apiVersion", TestConfigs.API, "kind", "GpuConfig",
        "replicas", "2");
    DeviceAllocationConfiguration config = new DeviceAllocationConfigurationBuilder()
        .withSource("FromClaim").withNewOpaque().withDriver(DRIVER).withParameters(parameters)
        .endOpaque().build();
    assertThatThrownBy(() -> ConfigResolver.of(TestConfigs.scheme(), DRIVER, DEFAULTS)
        .resolve(claim(List.of(config))))
        .hasMessage(C + "[0].opaque.parameters.replicas: want an integer, got \"2\"");
  }
}
