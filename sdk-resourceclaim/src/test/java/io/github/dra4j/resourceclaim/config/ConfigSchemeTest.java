package io.github.dra4j.resourceclaim.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.resource.v1.OpaqueDeviceConfigurationBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.resourceclaim.config.TestConfigs.GpuConfig;
import io.github.dra4j.resourceclaim.config.TestConfigs.Interval;
import io.github.dra4j.resourceclaim.config.TestConfigs.PlainConfig;
import io.github.dra4j.resourceclaim.config.TestConfigs.Sharing;
import io.github.dra4j.resourceclaim.config.TestConfigs.Strategy;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.json.JsonMapper;

class ConfigSchemeTest {

  private static final String HEAD = "{\"apiVersion\":\"gpu.resource.example.com/v1alpha1\",\"kind\":\"GpuConfig\"";

  private final ConfigScheme<Object> scheme = TestConfigs.scheme();

  private static String gpu(String fields) {
    return fields.isEmpty() ? HEAD + "}" : HEAD + "," + fields + "}";
  }

  @Test
  void decodesNormalizesAndValidatesInOneCall() {
    Object config = scheme.decode(gpu("\"sharing\":{\"strategy\":\"Mps\"},\"replicas\":4"));
    assertThat(config).isEqualTo(
        new GpuConfig(new Sharing(Strategy.Mps, null), 4, List.of()));

    assertThat(scheme.decode(gpu(""))).isEqualTo(
        new GpuConfig(new Sharing(Strategy.TimeSlicing, null), 1, List.of()));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', quoteCharacter = '\'', textBlock = """
      unknown top-level field | "replicas":1,"intervall":5 \
          | parameters: unknown field "intervall"
      unknown nested field   | "sharing":{"interval":{"secs":5}} \
          | parameters.sharing.interval: unknown field "secs"
      duplicate field        | "replicas":1,"replicas":2 \
          | parameters: duplicate field "replicas"
      duplicate nested field | "sharing":{"strategy":"Mps","strategy":"Mps"} \
          | parameters.sharing: duplicate field "strategy"
      string for integer     | "replicas":"5" \
          | parameters.replicas: want an integer, got "5"
      float for integer      | "replicas":1.5 \
          | parameters.replicas: want an integer, got 1.5
      integer out of range   | "sharing":{"interval":{"seconds":1100907354266105977508449}} \
          | parameters.sharing.interval.seconds: out of range for an integer, got 1100907354266105977508449
      integer for string     | "tags":["a",7] \
          | parameters.tags[1]: want a string, got 7
      object for list        | "tags":{"a":1} \
          | parameters.tags: want a list, got {"a":1}
      unknown enum value     | "sharing":{"strategy":"Foo"} \
          | parameters.sharing.strategy: unknown value "Foo", want one of "TimeSlicing", "Mps"
      null for boxed field   | "replicas":null \
          | parameters.replicas: null is not allowed
      null for primitive     | "sharing":{"interval":{"seconds":null}} \
          | parameters.sharing.interval.seconds: null is not allowed
      null in a list         | "tags":["a",null] \
          | parameters.tags[1]: null is not allowed
      """)
  void strictDecodingNamesThePathAndTheValue(String name, String fields, String message) {
    assertThatThrownBy(() -> scheme.decode(gpu(fields)))
        .isInstanceOf(ConfigException.class)
        .hasMessage(message);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', quoteCharacter = '\'', textBlock = """
      missing kind        | {"apiVersion":"gpu.resource.example.com/v1alpha1"} \
          | parameters: missing "kind"
      missing both        | {} \
          | parameters: missing "apiVersion"; parameters: missing "kind"
      kind not a string   | {"apiVersion":"gpu.resource.example.com/v1alpha1","kind":3} \
          | parameters.kind: want a non-empty string, got 3
      trailing garbage    | {"apiVersion":"v","kind":"k"} x \
          | parameters: unexpected content after the JSON value
      second object       | {"apiVersion":"v","kind":"k"}{} \
          | parameters: unexpected content after the JSON value
      array parameters    | [1,2] | parameters: want a JSON object, got [1,2]
      string parameters   | '"GpuConfig"' | parameters: want a JSON object, got "GpuConfig"
      empty input         | '' | parameters: empty, want a JSON object
      """)
  void envelopeErrorsAreReportedAtParameters(String name, String json, String message) {
    assertThatThrownBy(() -> scheme.decode(json == null ? "" : json))
        .isInstanceOf(ConfigException.class)
        .hasMessage(message);
  }

  @Test
  void anUnknownTypeIsReportedWithTheKnownOnes() {
    String known = "; known: gpu.resource.example.com/v1alpha1 GpuConfig,"
        + " gpu.resource.example.com/v1alpha1 NicConfig,"
        + " gpu.resource.example.com/v1alpha1 PlainConfig";
    assertThatThrownBy(() -> scheme.decode("{\"apiVersion\":\"" + TestConfigs.API
        + "\",\"kind\":\"TpuConfig\"}"))
        .isInstanceOf(ConfigException.class)
        .hasMessage("parameters: unknown apiVersion \"" + TestConfigs.API
            + "\" and kind \"TpuConfig\"" + known);
    assertThatThrownBy(() -> scheme.decode("{\"apiVersion\":\"v2\",\"kind\":\"GpuConfig\"}"))
        .hasMessage("parameters: unknown apiVersion \"v2\" and kind \"GpuConfig\"" + known);
  }

  @Test
  void malformedJsonNamesWhereItBroke() {
    assertThatThrownBy(() -> scheme.decode(gpu("\"sharing\":{\"strategy\":}")))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("parameters.sharing.strategy: invalid JSON at line 1, column");
  }

  @Test
  void validationSeesTheNormalizedValues() {
    // replicas is left out and becomes 1, which MPS does not allow: only normalization
    // makes the configuration invalid, so validation must run on the normalized object.
    assertThatThrownBy(() -> scheme.decode(gpu("\"sharing\":{\"strategy\":\"Mps\"}")))
        .isInstanceOf(ConfigException.class)
        .hasMessage("parameters.replicas: MPS needs at least 2 replicas, got 1");
  }

  @Test
  void everyValidationProblemIsReported() {
    ConfigException e = (ConfigException) catchThrown(() -> scheme.decode(gpu(
        "\"replicas\":0,\"sharing\":{\"strategy\":\"Mps\",\"interval\":{\"seconds\":0}}")));
    assertThat(e.problems()).containsExactly(
        ConfigProblem.of("parameters.replicas", "must be at least 1, got 0"),
        ConfigProblem.of("parameters.replicas", "MPS needs at least 2 replicas, got 0"),
        ConfigProblem.of("parameters.sharing.interval.seconds", "must be positive, got 0"));
  }

  @Test
  void decodesTheFabric8ParametersObjectTheSameWay() throws Exception {
    var opaque = new OpaqueDeviceConfigurationBuilder().withDriver("gpu.example.com")
        .withParameters(Map.of("apiVersion", TestConfigs.API, "kind", "GpuConfig",
            "replicas", 3))
        .build();
    assertThat(scheme.decodeParameters(opaque.getParameters()))
        .isEqualTo(new GpuConfig(new Sharing(Strategy.TimeSlicing, null), 3, List.of()));

    // What the model holds after reading a claim from the API server's JSON.
    ResourceClaim claim = new JsonMapper().readValue("""
        {"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim",
         "spec":{"devices":{"config":[{"opaque":{"driver":"gpu.example.com","parameters":
           {"apiVersion":"gpu.resource.example.com/v1alpha1","kind":"GpuConfig",
            "replicas":"2"}}}]}}}""", ResourceClaim.class);
    Object parameters = claim.getSpec().getDevices().getConfig().get(0).getOpaque()
        .getParameters();
    assertThatThrownBy(() -> scheme.decodeParameters(parameters))
        .isInstanceOf(ConfigException.class)
        .hasMessage("parameters.replicas: want an integer, got \"2\"");
    assertThatThrownBy(() -> scheme.decodeParameters(null))
        .hasMessage("parameters: missing, want a JSON object");
  }

  @Test
  void theLenientDecoderIgnoresUnknownFieldsOnly() {
    byte[] stored = gpu("\"replicas\":2,\"addedLater\":true").getBytes(StandardCharsets.UTF_8);
    assertThat(scheme.decodeLenient(stored))
        .isEqualTo(new GpuConfig(new Sharing(Strategy.TimeSlicing, null), 2, List.of()));
    assertThatThrownBy(() -> scheme.decodeLenient(
        gpu("\"replicas\":\"2\"").getBytes(StandardCharsets.UTF_8)))
        .hasMessage("parameters.replicas: want an integer, got \"2\"");
  }

  @Test
  void encodeWritesWhatDecodeReads() {
    GpuConfig config = new GpuConfig(new Sharing(Strategy.Mps, new Interval(5)), 2, List.of("x"));
    byte[] json = scheme.encode(config);
    assertThat(new String(json, StandardCharsets.UTF_8)).startsWith(HEAD);
    assertThat(scheme.decode(json)).isEqualTo(config);
    assertThat(scheme.decode(scheme.encode(new PlainConfig("p")))).isEqualTo(new PlainConfig("p"));
    assertThat(scheme.typeName(config)).isEqualTo(TestConfigs.API + " GpuConfig");
    assertThatThrownBy(() -> scheme.encode("not registered"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("type java.lang.String is not registered with this scheme");
  }

  @Test
  void registeringTwiceIsRefused() {
    assertThatThrownBy(() -> ConfigScheme.builder().register("v", "K", PlainConfig.class)
        .register("v", "K", GpuConfig.class))
        .hasMessage("v K is registered already");
    assertThatThrownBy(() -> ConfigScheme.builder().register("v", "K", PlainConfig.class)
        .register("v", "L", PlainConfig.class))
        .hasMessageEndingWith("PlainConfig is registered already");
  }

  private static Throwable catchThrown(Runnable action) {
    try {
      action.run();
    } catch (RuntimeException e) {
      return e;
    }
    throw new AssertionError("nothing thrown");
  }

  /** Parameters whose field {@code sharing} holds objects nested to {@code depth} in all. */
  private static String nested(int depth) {
    return gpu("\"sharing\":" + "{\"a\":".repeat(depth - 2) + "{}" + "}".repeat(depth - 2));
  }

  /**
   * Parameters nested 400 to 480 levels, under Jackson's limit of 500, once overflowed the 256 KiB
   * stacks the charts give their threads. Deeper than {@link ConfigScheme#MAX_DEPTH} is
   * refused by every entry point, naming the limit.
   */
  @Test
  void parametersNestedDeeperThanTheLimitAreRefusedNamingIt() throws Exception {
    String tooDeep = nested(ConfigScheme.MAX_DEPTH + 1);
    Object tree = JsonMapper.builder().build().readTree(nested(450));
    Object map = JsonMapper.builder().build().readValue(nested(450), Map.class);

    assertThatThrownBy(() -> scheme.decode(tooDeep)).isInstanceOf(ConfigException.class)
        .hasMessageContaining("nesting depth (65) exceeds the maximum allowed (64");
    assertThatThrownBy(() -> scheme.decodeParameters(tree)).isInstanceOf(ConfigException.class)
        .hasMessage("parameters: nested deeper than 64 levels of objects and arrays, the limit");
    assertThatThrownBy(() -> scheme.decodeParameters(map)).isInstanceOf(ConfigException.class)
        .hasMessage("parameters: nested deeper than 64 levels of objects and arrays, the limit");
  }

  /** At the limit, every entry point answers with a problem on a thread with a 256 KiB stack. */
  @Test
  void parametersAtTheLimitAreAnsweredOnA256KibStack() throws Exception {
    String atLimit = nested(ConfigScheme.MAX_DEPTH);
    Object tree = JsonMapper.builder().build().readTree(atLimit);
    Object map = JsonMapper.builder().build().readValue(atLimit, Map.class);
    java.util.List<Throwable> outcomes = new java.util.concurrent.CopyOnWriteArrayList<>();
    Thread small = new Thread(null, () -> {
      for (java.util.function.Supplier<Object> call : List.<java.util.function.Supplier<Object>> of(
          () -> scheme.decode(atLimit), () -> scheme.decodeParameters(tree),
          () -> scheme.decodeParameters(map))) {
        try {
          // Each call is expected to throw; one that returns leaves outcomes short of three.
          Object unused = call.get();
        } catch (Throwable t) {
          outcomes.add(t);
        }
      }
    }, "small-stack", 256 * 1024);
    small.start();
    small.join();

    assertThat(outcomes).hasSize(3).allSatisfy(t -> assertThat(t)
        .isInstanceOf(ConfigException.class).hasMessageContaining("parameters.sharing"));
  }
}
