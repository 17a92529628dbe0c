package io.github.dra4j.resourceapi.internal.claim;

import static io.github.dra4j.resourceapi.ExpectedErrors.assertErrors;
import static io.github.dra4j.resourceapi.internal.claim.Fixtures.GPU_REQUEST;
import static io.github.dra4j.resourceapi.internal.claim.Fixtures.OPAQUE;
import static io.github.dra4j.resourceapi.internal.claim.Fixtures.SUB_REQUEST;
import static io.github.dra4j.resourceapi.internal.claim.Fixtures.claim;
import static io.github.dra4j.resourceapi.internal.claim.Fixtures.devicesJson;
import static io.github.dra4j.resourceapi.internal.claim.Fixtures.repeat;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.resourceapi.FeatureGates;
import io.github.dra4j.resourceapi.FieldError;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** A claim's constraints and config entries, and the requests they refer to. */
class DeviceClaimRulesTest {

  private static final FeatureGates GATES = FeatureGates.kubernetes136();
  private static final String C0 = "spec.devices.constraints[0]";
  private static final String K0 = "spec.devices.config[0]";

  /** A request {@code foo} with the sub-requests {@code foo/foo} and {@code foo/bar}. */
  private static final String PRIORITIZED = "{name:'foo',firstAvailable:["
      + String.format(SUB_REQUEST, "foo") + "," + String.format(SUB_REQUEST, "bar") + "]}";

  private static String constraints(String... items) {
    return "constraints:[" + String.join(",", items) + "]";
  }

  private static String config(String... items) {
    return "config:[" + String.join(",", items) + "]";
  }

  private static String configFor(String requests) {
    return "{requests:[" + requests + "]," + OPAQUE + "}";
  }

  private static String parameters(String json) {
    return "{opaque:{driver:'dra.example.com',parameters:" + json + "}}";
  }

  /** Parameters whose compact JSON, {@code {"str":"xx..."}}, takes {@code size} bytes. */
  private static String parametersOfSize(int size) {
    return parameters("{str:'" + "x".repeat(size - 10) + "'}");
  }

  static Stream<Arguments> valid() {
    return Stream.of(
        Arguments.of("no constraints or config", GPU_REQUEST, ""),
        Arguments.of("32 requests, constraints and config entries",
            repeat(32, i -> GPU_REQUEST.replace("'gpu'", "'gpu-" + i + "'")),
            constraints(repeat(32, i -> "{matchAttribute:'foo/bar'}")) + ","
                + config(repeat(32, i -> "{" + OPAQUE + "}"))),
        Arguments.of("a constraint on all requests", GPU_REQUEST,
            constraints("{matchAttribute:'dra.example.com/numa'}")),
        Arguments.of("a constraint naming the request", GPU_REQUEST,
            constraints("{requests:['gpu'],matchAttribute:'dra.example.com/numa'}")),
        Arguments.of("a distinct attribute", GPU_REQUEST,
            constraints("{distinctAttribute:'dra.example.com/socket'}")),
        Arguments.of("both attributes: only matchAttribute is looked at", GPU_REQUEST,
            constraints("{matchAttribute:'a.example.com/x',distinctAttribute:'b.example.com/y'}")),
        Arguments.of("a constraint naming a sub-request", PRIORITIZED,
            constraints("{requests:['foo/bar'],matchAttribute:'dra.example.com/driverVersion'}")),
        Arguments.of("a constraint naming a prioritized request", PRIORITIZED,
            constraints("{requests:['foo'],matchAttribute:'dra.example.com/driverVersion'}")),
        Arguments.of("config for all requests", GPU_REQUEST, config("{" + OPAQUE + "}")),
        Arguments.of("config naming a sub-request", PRIORITIZED, config(configFor("'foo/bar'"))),
        Arguments.of("config naming a prioritized request", PRIORITIZED,
            config(configFor("'foo'"))),
        Arguments.of("config naming two requests", PRIORITIZED + "," + GPU_REQUEST,
            config(configFor("'foo/foo','gpu'"))),
        Arguments.of("parameters of exactly 10 KiB", GPU_REQUEST,
            config(parametersOfSize(10 * 1024))),
        Arguments.of("empty parameters object", GPU_REQUEST, config(parameters("{}"))),
        Arguments.of("a mixed-case driver", GPU_REQUEST,
            config("{opaque:{driver:'DRA.Example.COM',parameters:{a:1}}}")),
        Arguments.of("a driver of 63 characters", GPU_REQUEST,
            config("{opaque:{driver:'" + "a".repeat(63) + "',parameters:{a:1}}}")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valid")
  void validConstraintsAndConfig(String name, String requests, String more) {
    assertErrors(ResourceClaimValidation.validate(claim(devicesJson(requests, more)), GATES));
  }

  static Stream<Arguments> invalid() {
    return Stream.of(
        Arguments.of("a bad and unknown request name, a name without domain, an empty name,"
            + " no attribute", GPU_REQUEST,
            constraints(
                "{requests:['gpu','!@#$%^'],matchAttribute:'missing-domain'}",
                "{matchAttribute:''}", "{}"),
            List.of("Invalid " + C0 + ".requests[1]", "Invalid " + C0 + ".requests[1]",
                "Invalid " + C0 + ".matchAttribute", "Invalid " + C0 + ".matchAttribute",
                "Invalid spec.devices.constraints[1].matchAttribute",
                "Invalid spec.devices.constraints[1].matchAttribute",
                "Required spec.devices.constraints[2]")),
        Arguments.of("an unknown request", GPU_REQUEST,
            constraints("{requests:['tpu'],matchAttribute:'a.example.com/b'}"),
            List.of("Invalid " + C0 + ".requests[0]")),
        Arguments.of("an unknown sub-request", PRIORITIZED,
            constraints("{requests:['foo/baz'],matchAttribute:'dra.example.com/driverVersion'}"),
            List.of("Invalid " + C0 + ".requests[0]")),
        Arguments.of("a sub-request of an exact request", GPU_REQUEST,
            constraints("{requests:['gpu/sub'],matchAttribute:'a.example.com/b'}"),
            List.of("Invalid " + C0 + ".requests[0]")),
        Arguments.of("two slashes: only one error", GPU_REQUEST,
            constraints("{requests:['foo/foo/foo'],matchAttribute:'a.example.com/b'}"),
            List.of("Invalid " + C0 + ".requests[0]")),
        Arguments.of("a bad request and sub-request name", PRIORITIZED,
            constraints("{requests:['!@#$%^/&^%$'],matchAttribute:'a.example.com/b'}"),
            List.of("Invalid " + C0 + ".requests[0]", "Invalid " + C0 + ".requests[0]",
                "Invalid " + C0 + ".requests[0]")),
        Arguments.of("an empty sub-request name", GPU_REQUEST,
            constraints("{requests:['gpu/'],matchAttribute:'a.example.com/b'}"),
            List.of("Invalid " + C0 + ".requests[0]", "Invalid " + C0 + ".requests[0]")),
        Arguments.of("a request named twice", GPU_REQUEST,
            constraints("{requests:['gpu','gpu'],matchAttribute:'a.example.com/b'}"),
            List.of("Duplicate " + C0 + ".requests[1]")),
        Arguments.of("33 requests named", GPU_REQUEST,
            constraints("{requests:[" + repeat(33, i -> "'gpu'") + "],"
                + "matchAttribute:'a.example.com/b'}"),
            List.of("TooMany " + C0 + ".requests")),
        Arguments.of("33 constraints", GPU_REQUEST,
            constraints(repeat(33, i -> "{matchAttribute:'foo/bar'}")),
            List.of("TooMany spec.devices.constraints")),
        Arguments.of("a distinct attribute without domain", GPU_REQUEST,
            constraints("{distinctAttribute:'socket'}"),
            List.of("Invalid " + C0 + ".distinctAttribute")),
        Arguments.of("config: bad and unknown request", GPU_REQUEST,
            config(configFor("'gpu','!@#$%^'")),
            List.of("Invalid " + K0 + ".requests[1]", "Invalid " + K0 + ".requests[1]")),
        Arguments.of("config: an unknown sub-request", PRIORITIZED,
            config(configFor("'foo/baz'")), List.of("Invalid " + K0 + ".requests[0]")),
        Arguments.of("config: a request named twice", GPU_REQUEST,
            config(configFor("'gpu','gpu'")), List.of("Duplicate " + K0 + ".requests[1]")),
        Arguments.of("config: 33 requests named", GPU_REQUEST,
            config(configFor(repeat(33, i -> "'gpu'"))), List.of("TooMany " + K0 + ".requests")),
        Arguments.of("33 config entries", GPU_REQUEST,
            config(repeat(33, i -> "{" + OPAQUE + "}")), List.of("TooMany spec.devices.config")),
        Arguments.of("config without opaque", GPU_REQUEST, config("{}"),
            List.of("Required " + K0 + ".opaque")),
        Arguments.of("opaque without driver or parameters", GPU_REQUEST, config("{opaque:{}}"),
            List.of("Required " + K0 + ".opaque.driver", "Required " + K0 + ".opaque.parameters")),
        Arguments.of("opaque without driver", GPU_REQUEST,
            config("{opaque:{parameters:{a:1}}}"), List.of("Required " + K0 + ".opaque.driver")),
        Arguments.of("a driver with an underscore", GPU_REQUEST,
            config("{opaque:{driver:'dra_example.com',parameters:{a:1}}}"),
            List.of("Invalid " + K0 + ".opaque.driver")),
        Arguments.of("a driver of 64 characters", GPU_REQUEST,
            config("{opaque:{driver:'" + "a".repeat(64) + "',parameters:{a:1}}}"),
            List.of("TooLong " + K0 + ".opaque.driver")),
        Arguments.of("parameters: null", GPU_REQUEST, config(parameters("null")),
            List.of("Required " + K0 + ".opaque.parameters")),
        Arguments.of("parameters: a string", GPU_REQUEST, config(parameters("'hello-world'")),
            List.of("Invalid " + K0 + ".opaque.parameters")),
        Arguments.of("parameters: a number", GPU_REQUEST, config(parameters("42")),
            List.of("Invalid " + K0 + ".opaque.parameters")),
        Arguments.of("parameters one byte over 10 KiB", GPU_REQUEST,
            config("{" + OPAQUE + "}", parametersOfSize(10 * 1024 + 1)),
            List.of("TooLong spec.devices.config[1].opaque.parameters")),
        Arguments.of("several config problems", GPU_REQUEST, config(parameters("null"),
            parameters("'x'"), parameters("null"), parametersOfSize(10 * 1024),
            parametersOfSize(10 * 1024 + 1)),
            List.of("Required " + K0 + ".opaque.parameters",
                "Invalid spec.devices.config[1].opaque.parameters",
                "Required spec.devices.config[2].opaque.parameters",
                "TooLong spec.devices.config[4].opaque.parameters")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalid")
  void invalidConstraintsAndConfig(String name, String requests, String more,
      List<String> expected) {
    assertErrors(ResourceClaimValidation.validate(claim(devicesJson(requests, more)), GATES),
        expected.toArray(String[]::new));
  }

  @Test
  void noAttributeNamesTheConstraintWithConsumableCapacity() {
    String devices = devicesJson(GPU_REQUEST, constraints("{requests:['gpu']}"));
    assertThat(ResourceClaimValidation.validate(claim(devices),
        GATES.with(FeatureGates.DRA_CONSUMABLE_CAPACITY, true)))
        .extracting(FieldError::toString)
        .containsExactly(C0 + ": Required value: exactly one of \"matchAttribute\" or"
            + " \"distinctAttribute\" is required, but multiple fields are set");
    assertThat(ResourceClaimValidation.validate(claim(devices),
        GATES.with(FeatureGates.DRA_CONSUMABLE_CAPACITY, false)))
        .extracting(FieldError::toString)
        .containsExactly(C0 + ".matchAttribute: Required value");
  }

  @Test
  void parametersThatAreAList() {
    // fabric8 cannot read a list of numbers as parameters; the API server could get one.
    ResourceClaim listed = claim(devicesJson(GPU_REQUEST, config(parameters("{}"))));
    listed.getSpec().getDevices().getConfig().get(0).getOpaque().setParameters(List.of(1, 2));
    assertErrors(ResourceClaimValidation.validate(listed, GATES),
        "Invalid " + K0 + ".opaque.parameters");
  }

  @Test
  void referenceMessages() {
    assertThat(ResourceClaimValidation.validate(claim(devicesJson(PRIORITIZED,
        constraints("{requests:['foo/baz'],matchAttribute:'dra.example.com/v'}") + ","
            + config("{" + OPAQUE + "}", "{}"))),
        GATES))
        .extracting(FieldError::toString)
        .containsExactly(C0 + ".requests[0]: Invalid value: \"foo/baz\": must be the name of a"
            + " request in the claim or the name of a request and a subrequest separated by"
            + " '/'",
            "spec.devices.config[1].opaque: Required value");
  }

  @Test
  void tooLargeParametersMessage() {
    assertThat(ResourceClaimValidation.validate(claim(devicesJson(GPU_REQUEST,
        config(parametersOfSize(10 * 1024 + 1)))), GATES))
        .extracting(FieldError::toString)
        .containsExactly(K0 + ".opaque.parameters: Too long: may not be more than 10240 bytes");
  }
}
