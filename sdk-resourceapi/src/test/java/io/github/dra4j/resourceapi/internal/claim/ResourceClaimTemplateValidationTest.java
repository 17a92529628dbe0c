package io.github.dra4j.resourceapi.internal.claim;

import static io.github.dra4j.resourceapi.ExpectedErrors.assertErrors;
import static io.github.dra4j.resourceapi.internal.claim.Fixtures.GPU_REQUEST;
import static io.github.dra4j.resourceapi.internal.claim.Fixtures.devicesJson;
import static io.github.dra4j.resourceapi.internal.claim.Fixtures.template;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
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

/** A claim template: its metadata, its claims' metadata and spec, and what may change. */
class ResourceClaimTemplateValidationTest {

  private static final FeatureGates GATES = FeatureGates.kubernetes136();
  private static final String VALID = devicesJson(GPU_REQUEST, "");
  private static final String BAD_NAME = "!@#$%^";

  private static Arguments change(String name, Consumer<ResourceClaimTemplate> change,
      String... expected) {
    return Arguments.of(name, change, List.of(expected));
  }

  private static ObjectMeta claimMeta(ResourceClaimTemplate template) {
    if (template.getSpec().getMetadata() == null) {
      template.getSpec().setMetadata(new ObjectMeta());
    }
    return template.getSpec().getMetadata();
  }

  static Stream<Arguments> creates() {
    return Stream.of(
        change("a good template", t -> {}),
        change("a generated name", t -> t.getMetadata().setGenerateName("pvc-")),
        change("a uid", t -> t.getMetadata().setUid("ac051fac-2ead-46d9-b8b4-4e0fbeb7455d")),
        change("a resource version", t -> t.getMetadata().setResourceVersion("1")),
        change("a generation", t -> t.getMetadata().setGeneration(100L)),
        change("a finalizer", t -> t.getMetadata().setFinalizers(List.of("example.com/foo"))),
        change("good labels",
            t -> t.getMetadata().setLabels(Map.of("apps.kubernetes.io/name", "test"))),
        change("good claim labels",
            t -> claimMeta(t).setLabels(Map.of("apps.kubernetes.io/name", "test"))),
        change("good claim annotations", t -> claimMeta(t).setAnnotations(Map.of("foo", "bar"))),
        change("no name", t -> t.getMetadata().setName(null), "Required metadata.name"),
        change("a bad name", t -> t.getMetadata().setName(BAD_NAME), "Invalid metadata.name"),
        change("no namespace", t -> t.getMetadata().setNamespace(null),
            "Required metadata.namespace"),
        change("a bad label value", t -> t.getMetadata().setLabels(
            Map.of("hello-world", "spaces not allowed")), "Invalid metadata.labels"),
        change("a bad annotation key", t -> t.getMetadata().setAnnotations(
            Map.of(BAD_NAME, "hello world")), "Invalid metadata.annotations"),
        change("a bad claim label value", t -> claimMeta(t).setLabels(
            Map.of("hello-world", "spaces not allowed")), "Invalid spec.metadata.labels"),
        change("a bad claim annotation key", t -> claimMeta(t).setAnnotations(
            Map.of(BAD_NAME, "hello world")), "Invalid spec.metadata.annotations"),
        change("a bad class name", t -> t.getSpec().getSpec().getDevices().getRequests().get(0)
            .getExactly().setDeviceClassName(BAD_NAME),
            "Invalid spec.spec.devices.requests[0].exactly.deviceClassName"),
        change("no class name", t -> t.getSpec().getSpec().getDevices().getRequests().get(0)
            .getExactly().setDeviceClassName(null),
            "Required spec.spec.devices.requests[0].exactly.deviceClassName"),
        change("neither exactly nor firstAvailable", t -> t.getSpec().getSpec().getDevices()
            .getRequests().get(0).setExactly(null),
            "Required spec.spec.devices.requests[0]"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("creates")
  void validate(String name, Consumer<ResourceClaimTemplate> change, List<String> expected) {
    ResourceClaimTemplate template = template(VALID);
    change.accept(template);
    assertErrors(ResourceClaimTemplateValidation.validate(template, GATES),
        expected.toArray(String[]::new));
  }

  @Test
  void theClaimsSpecIsCheckedLikeAClaims() {
    ResourceClaimTemplate template = template(devicesJson(GPU_REQUEST,
        "constraints:[{requests:['gpu','tpu']}],config:[{opaque:{driver:'d'}}]"));
    template.getSpec().getSpec().getDevices().getRequests().get(0).getExactly()
        .setSelectors(List.of(Fixtures.read("{cel:{expression:'" + "x".repeat(10241) + "'}}",
            io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector.class)));
    assertErrors(ResourceClaimTemplateValidation.validate(template, GATES),
        "TooLong spec.spec.devices.requests[0].exactly.selectors[0].cel.expression",
        "Invalid spec.spec.devices.constraints[0].requests[1]",
        "Required spec.spec.devices.constraints[0]",
        "Required spec.spec.devices.config[0].opaque.parameters");
  }

  static Stream<Arguments> updates() {
    return Stream.of(
        change("no change", t -> {}),
        change("a label", t -> t.getMetadata().setLabels(Map.of("a", "b"))),
        change("a changed count", t -> t.getSpec().getSpec().getDevices().getRequests().get(0)
            .getExactly().setCount(2L), "Invalid spec"),
        change("a changed claim label", t -> claimMeta(t).setLabels(Map.of("a", "b")),
            "Invalid spec"),
        change("a new invalid spec: only immutability", t -> t.getSpec().getSpec().getDevices()
            .getRequests().get(0).setExactly(null), "Invalid spec"),
        change("a changed name", t -> t.getMetadata().setName("bar"), "Invalid metadata.name"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("updates")
  void validateUpdate(String name, Consumer<ResourceClaimTemplate> change,
      List<String> expected) {
    ResourceClaimTemplate old = template(VALID);
    old.getMetadata().setResourceVersion("1");
    ResourceClaimTemplate updated = template(VALID);
    updated.getMetadata().setResourceVersion("1");
    change.accept(updated);
    assertErrors(ResourceClaimTemplateValidation.validateUpdate(updated, old, GATES),
        expected.toArray(String[]::new));
  }

  @Test
  void anInvalidStoredSpecIsNotCheckedAgain() {
    String invalid = devicesJson("{name:'GPU',exactly:{}}", "");
    ResourceClaimTemplate old = template(invalid);
    old.getMetadata().setResourceVersion("1");
    ResourceClaimTemplate updated = template(invalid);
    updated.getMetadata().setResourceVersion("1");
    assertErrors(ResourceClaimTemplateValidation.validateUpdate(updated, old, GATES));
  }

  @Test
  void immutableSpecMessage() {
    ResourceClaimTemplate old = template(VALID);
    old.getMetadata().setResourceVersion("1");
    ResourceClaimTemplate updated = template(VALID);
    updated.getMetadata().setResourceVersion("1");
    updated.getSpec().getSpec().getDevices().getRequests().get(0).getExactly().setCount(3L);
    assertThat(ResourceClaimTemplateValidation.validateUpdate(updated, old, GATES))
        .extracting(FieldError::toString)
        .containsExactly("spec: Invalid value: {\"creationTimestamp\":null,\"Spec\":{"
            + "\"Devices\":{\"Requests\":[{\"Name\":\"gpu\",\"Exactly\":{"
            + "\"DeviceClassName\":\"gpu.example.com\",\"Selectors\":null,"
            + "\"AllocationMode\":\"ExactCount\",\"Count\":3,\"AdminAccess\":null,"
            + "\"Tolerations\":null,\"Capacity\":null},\"FirstAvailable\":null}],"
            + "\"Constraints\":null,\"Config\":null}}}: field is immutable");
  }
}
