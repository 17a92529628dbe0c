package io.github.dra4j.resourceapi.internal.claim;

import static io.github.dra4j.resourceapi.ExpectedErrors.assertErrors;
import static io.github.dra4j.resourceapi.internal.claim.Fixtures.GPU_REQUEST;
import static io.github.dra4j.resourceapi.internal.claim.Fixtures.claim;
import static io.github.dra4j.resourceapi.internal.claim.Fixtures.devicesJson;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
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

/** A claim's metadata on create, and what may change on update. */
class ResourceClaimValidationTest {

  private static final FeatureGates GATES = FeatureGates.kubernetes136();
  private static final String VALID = devicesJson(GPU_REQUEST, "");
  private static final String BAD_NAME = "!@#$%^";

  private static Arguments meta(String name, Consumer<ResourceClaim> change, String... expected) {
    return Arguments.of(name, change, List.of(expected));
  }

  static Stream<Arguments> metadata() {
    return Stream.of(
        meta("a good claim", claim -> {}),
        meta("a generated name", claim -> claim.getMetadata().setGenerateName("pvc-")),
        meta("a uid", claim -> claim.getMetadata().setUid("ac051fac-2ead-46d9-b8b4-4e0fbeb7455d")),
        meta("a resource version", claim -> claim.getMetadata().setResourceVersion("1")),
        meta("a generation", claim -> claim.getMetadata().setGeneration(100L)),
        meta("a creation timestamp",
            claim -> claim.getMetadata().setCreationTimestamp("2026-01-01T00:00:00Z")),
        meta("a deletion grace period",
            claim -> claim.getMetadata().setDeletionGracePeriodSeconds(10L)),
        meta("a finalizer",
            claim -> claim.getMetadata().setFinalizers(List.of("example.com/foo"))),
        meta("good labels",
            claim -> claim.getMetadata().setLabels(Map.of("apps.kubernetes.io/name", "test"))),
        meta("good annotations", claim -> claim.getMetadata().setAnnotations(Map.of("foo", "bar"))),
        meta("no name", claim -> claim.getMetadata().setName(null), "Required metadata.name"),
        meta("a bad name", claim -> claim.getMetadata().setName(BAD_NAME),
            "Invalid metadata.name"),
        meta("no namespace", claim -> claim.getMetadata().setNamespace(null),
            "Required metadata.namespace"),
        meta("a bad label value", claim -> claim.getMetadata().setLabels(
            Map.of("hello-world", "spaces not allowed")), "Invalid metadata.labels"),
        meta("a bad annotation key", claim -> claim.getMetadata().setAnnotations(
            Map.of(BAD_NAME, "hello world")), "Invalid metadata.annotations"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("metadata")
  void metadataOnCreate(String name, Consumer<ResourceClaim> change, List<String> expected) {
    ResourceClaim claim = claim(VALID);
    change.accept(claim);
    assertErrors(ResourceClaimValidation.validate(claim, GATES), expected.toArray(String[]::new));
  }

  @Test
  void aClaimWithoutSpecAsksForNoDevices() {
    // An empty spec asks for no devices; the server accepts it.
    ResourceClaim claim = claim(VALID);
    claim.setSpec(null);
    assertErrors(ResourceClaimValidation.validate(claim, GATES));
  }

  static Stream<Arguments> updates() {
    String changed = devicesJson(GPU_REQUEST.replace("count:1", "count:2"), "");
    String invalid = devicesJson("{name:'gpu',exactly:{deviceClassName:'c',"
        + "selectors:[{cel:{expression:'noSuchVar'}}]}}", "");
    return Stream.of(
        Arguments.of("no change", VALID, VALID, List.of()),
        Arguments.of("an empty list written out", devicesJson(GPU_REQUEST, "constraints:[]"),
            VALID, List.of()),
        Arguments.of("an invalid spec, unchanged: not checked again", invalid, invalid,
            List.of()),
        Arguments.of("a changed count", changed, VALID, List.of("Invalid spec")),
        Arguments.of("an added request", devicesJson(GPU_REQUEST + ","
            + GPU_REQUEST.replace("'gpu'", "'gpu2'"), ""), VALID, List.of("Invalid spec")),
        Arguments.of("a new invalid spec: only immutability", invalid, VALID,
            List.of("Invalid spec")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("updates")
  void specIsImmutable(String name, String devices, String oldDevices, List<String> expected) {
    ResourceClaim old = claim(oldDevices);
    old.getMetadata().setResourceVersion("1");
    ResourceClaim updated = claim(devices);
    updated.getMetadata().setResourceVersion("1");
    assertErrors(ResourceClaimValidation.validateUpdate(updated, old, GATES),
        expected.toArray(String[]::new));
  }

  @Test
  void immutableSpecMessage() {
    ResourceClaim old = claim(VALID);
    old.getMetadata().setResourceVersion("1");
    ResourceClaim updated = claim(devicesJson(GPU_REQUEST.replace("count:1", "count:2"), ""));
    updated.getMetadata().setResourceVersion("1");
    assertThat(ResourceClaimValidation.validateUpdate(updated, old, GATES))
        .extracting(FieldError::toString)
        .containsExactly("spec: Invalid value: {\"Devices\":{\"Requests\":[{\"Name\":\"gpu\","
            + "\"Exactly\":{\"DeviceClassName\":\"gpu.example.com\",\"Selectors\":null,"
            + "\"AllocationMode\":\"ExactCount\",\"Count\":2,\"AdminAccess\":null,"
            + "\"Tolerations\":null,\"Capacity\":null},\"FirstAvailable\":null}],"
            + "\"Constraints\":null,\"Config\":null}}: field is immutable");
  }

  @Test
  void metadataIsCheckedOnUpdate() {
    ResourceClaim old = claim(VALID);
    ResourceClaim updated = claim(VALID);
    old.getMetadata().setResourceVersion("1");
    updated.getMetadata().setResourceVersion("1");
    updated.getMetadata().setName("bar");
    updated.getMetadata().setLabels(Map.of("hello-world", "spaces not allowed"));
    // The new metadata is checked on its own and again as an update, so the API server reports
    // the bad label twice.
    assertErrors(ResourceClaimValidation.validateUpdate(updated, old, GATES),
        "Invalid metadata.name", "Invalid metadata.labels", "Invalid metadata.labels");
  }
}
