package io.github.dra4j.resourceapi.internal.deviceclass;

import static io.github.dra4j.resourceapi.ExpectedErrors.assertErrors;
import static io.github.dra4j.resourceapi.internal.claim.Fixtures.read;
import static io.github.dra4j.resourceapi.internal.claim.Fixtures.repeat;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.github.dra4j.resourceapi.FeatureGates;
import io.github.dra4j.resourceapi.FieldError;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** DeviceClasses: metadata, selectors, config, extended resource names, and updates. */
class DeviceClassValidationTest {

  private static final FeatureGates GATES = FeatureGates.kubernetes136();
  private static final String BAD_NAME = "!@#$%^";
  private static final String GOOD_CONFIG = "{opaque:{driver:'foo',parameters:{foo:42}}}";
  private static final String TRUE = "{cel:{expression:'true'}}";

  private static DeviceClass deviceClass(String specJson) {
    return read("{apiVersion:'resource.k8s.io/v1',kind:'DeviceClass',metadata:{name:'foo'},"
        + "spec:" + specJson + "}", DeviceClass.class);
  }

  /** Parameters whose compact JSON, {@code {"str":"xx..."}}, takes {@code size} bytes. */
  private static String configOfSize(int size) {
    return "{opaque:{driver:'foo',parameters:{str:'" + "x".repeat(size - 10) + "'}}}";
  }

  private static Arguments meta(String name, Consumer<DeviceClass> change, String... expected) {
    return Arguments.of(name, change, List.of(expected));
  }

  static Stream<Arguments> metadata() {
    return Stream.of(
        meta("a good class", c -> {}),
        meta("a generated name", c -> c.getMetadata().setGenerateName("pvc-")),
        meta("a uid", c -> c.getMetadata().setUid("ac051fac-2ead-46d9-b8b4-4e0fbeb7455d")),
        meta("a resource version", c -> c.getMetadata().setResourceVersion("1")),
        meta("a generation", c -> c.getMetadata().setGeneration(100L)),
        meta("a deletion grace period", c -> c.getMetadata().setDeletionGracePeriodSeconds(10L)),
        meta("a finalizer", c -> c.getMetadata().setFinalizers(List.of("example.com/foo"))),
        meta("good labels",
            c -> c.getMetadata().setLabels(Map.of("apps.kubernetes.io/name", "test"))),
        meta("good annotations", c -> c.getMetadata().setAnnotations(Map.of("foo", "bar"))),
        meta("a dotted name", c -> c.getMetadata().setName("gpu.example.com")),
        meta("no name", c -> c.getMetadata().setName(null), "Required metadata.name"),
        meta("a bad name", c -> c.getMetadata().setName(BAD_NAME), "Invalid metadata.name"),
        meta("a namespace on a cluster-scoped kind", c -> c.getMetadata().setNamespace("ns"),
            "Forbidden metadata.namespace"),
        meta("a bad label value", c -> c.getMetadata().setLabels(
            Map.of("hello-world", "spaces not allowed")), "Invalid metadata.labels"),
        meta("a bad annotation key", c -> c.getMetadata().setAnnotations(
            Map.of(BAD_NAME, "hello world")), "Invalid metadata.annotations"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("metadata")
  void metadataOnCreate(String name, Consumer<DeviceClass> change, List<String> expected) {
    DeviceClass deviceClass = deviceClass("{}");
    change.accept(deviceClass);
    assertErrors(DeviceClassValidation.validate(deviceClass, GATES),
        expected.toArray(String[]::new));
  }

  static Stream<Arguments> specs() {
    return Stream.of(
        Arguments.of("an empty spec", "{}", List.of()),
        Arguments.of("an extended resource name", "{extendedResourceName:'example.com/gpu'}",
            List.of()),
        Arguments.of("32 selectors", "{selectors:[" + repeat(32, i -> TRUE) + "]}", List.of()),
        Arguments.of("32 config entries", "{config:[" + repeat(32, i -> GOOD_CONFIG) + "]}",
            List.of()),
        Arguments.of("parameters of exactly 10 KiB", "{config:[" + configOfSize(10240) + "]}",
            List.of()),
        Arguments.of("an extended resource name without domain",
            "{extendedResourceName:'example.com'}", List.of("Invalid spec.extendedResourceName")),
        Arguments.of("an extended resource name in kubernetes.io",
            "{extendedResourceName:'kubernetes.io/gpu'}",
            List.of("Invalid spec.extendedResourceName")),
        Arguments.of("an extended resource name with the requests. prefix",
            "{extendedResourceName:'requests.example.com/gpu'}",
            List.of("Invalid spec.extendedResourceName")),
        Arguments.of("selectors without cel and not compiling", "{selectors:[" + TRUE + ",{},"
            + "{cel:{expression:'noSuchVar'}}," + repeat(29, i -> TRUE) + "]}",
            List.of("Required spec.selectors[1].cel", "Invalid spec.selectors[2].cel.expression")),
        Arguments.of("33 selectors", "{selectors:[" + repeat(33, i -> TRUE) + "]}",
            List.of("TooMany spec.selectors")),
        Arguments.of("a selector over 10 KiB", "{selectors:[{cel:{expression:'"
            + "x".repeat(10241) + "'}}]}", List.of("TooLong spec.selectors[0].cel.expression")),
        Arguments.of("config problems", "{config:[" + GOOD_CONFIG + ",{opaque:{}},"
            + "{opaque:{driver:'foo',parameters:'hello-world'}},"
            + "{opaque:{driver:'foo',parameters:null}},{}," + configOfSize(10240) + ","
            + configOfSize(10241) + "]}",
            List.of("Required spec.config[1].opaque.driver",
                "Required spec.config[1].opaque.parameters",
                "Invalid spec.config[2].opaque.parameters",
                "Required spec.config[3].opaque.parameters",
                "Required spec.config[4].opaque",
                "TooLong spec.config[6].opaque.parameters")),
        Arguments.of("a bad driver", "{config:[{opaque:{driver:'dra_example.com',"
            + "parameters:{a:1}}}]}", List.of("Invalid spec.config[0].opaque.driver")),
        Arguments.of("33 config entries", "{config:[" + repeat(33, i -> GOOD_CONFIG) + "]}",
            List.of("TooMany spec.config")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("specs")
  void specOnCreate(String name, String spec, List<String> expected) {
    assertErrors(DeviceClassValidation.validate(deviceClass(spec), GATES),
        expected.toArray(String[]::new));
  }

  @Test
  void messages() {
    assertThat(DeviceClassValidation.validate(deviceClass("{extendedResourceName:'example.com',"
        + "selectors:[{cel:{expression:'noSuchVar'}},{}]}"), GATES))
        .extracting(FieldError::toString)
        .containsExactlyInAnyOrder(
            "spec.extendedResourceName: Invalid value: \"example.com\": must be a valid"
                + " extended resource name",
            "spec.selectors[0].cel.expression: Invalid value: \"noSuchVar\": compilation failed:"
                + " ERROR: <input>:1:1: undeclared reference to 'noSuchVar' (in container '')\n"
                + " | noSuchVar\n | ^",
            "spec.selectors[1].cel: Required value");
  }

  static Stream<Arguments> updates() {
    String large = "{config:[" + configOfSize(10241) + "]}";
    String capacity = "{cel:{expression:'device.allowMultipleAllocations'}}";
    return Stream.of(
        Arguments.of("no change", "{}", "{}", List.of()),
        Arguments.of("parameters grown to exactly 10 KiB", "{}",
            "{config:[" + configOfSize(10240) + "]}", List.of()),
        Arguments.of("parameters grown over 10 KiB", "{}", large,
            List.of("TooLong spec.config[0].opaque.parameters")),
        Arguments.of("stored parameters over 10 KiB, unchanged", large, large, List.of()),
        Arguments.of("stored parameters over 10 KiB, selectors changed", large,
            large.replace("{config", "{selectors:[" + TRUE + "],config"), List.of()),
        Arguments.of("stored parameters over 10 KiB, another entry added", large,
            large.replace("]}", "," + GOOD_CONFIG + "]}"),
            List.of("TooLong spec.config[0].opaque.parameters")),
        Arguments.of("a stored selector the new-expression environment refuses, unchanged",
            "{selectors:[" + capacity + "]}", "{selectors:[" + capacity + "]}", List.of()),
        Arguments.of("the same selectors reordered: checked as new",
            "{selectors:[" + capacity + "," + TRUE + "]}",
            "{selectors:[" + TRUE + "," + capacity + "]}",
            List.of("Invalid spec.selectors[1].cel.expression")),
        Arguments.of("a new selector that does not compile", "{}",
            "{selectors:[{cel:{expression:'noSuchVar'}}]}",
            List.of("Invalid spec.selectors[0].cel.expression")),
        Arguments.of("an extended resource name set", "{}",
            "{extendedResourceName:'example.com/gpu'}", List.of()),
        Arguments.of("a bad extended resource name set", "{}",
            "{extendedResourceName:'gpu'}", List.of("Invalid spec.extendedResourceName")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("updates")
  void specOnUpdate(String name, String oldSpec, String newSpec, List<String> expected) {
    DeviceClass old = deviceClass(oldSpec);
    old.getMetadata().setResourceVersion("1");
    DeviceClass updated = deviceClass(newSpec);
    updated.getMetadata().setResourceVersion("1");
    assertErrors(DeviceClassValidation.validateUpdate(updated, old,
        GATES.with(FeatureGates.DRA_CONSUMABLE_CAPACITY, false)), expected.toArray(String[]::new));
  }

  @Test
  void metadataIsCheckedOnUpdate() {
    DeviceClass old = deviceClass("{}");
    DeviceClass updated = deviceClass("{}");
    old.getMetadata().setResourceVersion("1");
    updated.getMetadata().setResourceVersion("1");
    updated.getMetadata().setName("bar");
    updated.getMetadata().setLabels(Map.of("hello-world", "spaces not allowed"));
    // The new metadata is checked on its own and again as an update, so the API server reports
    // the bad label twice.
    assertErrors(DeviceClassValidation.validateUpdate(updated, old, GATES),
        "Invalid metadata.name", "Invalid metadata.labels", "Invalid metadata.labels");
  }
}
