package io.github.dra4j.resourceapi.internal.claim;

import static io.github.dra4j.resourceapi.internal.claim.StatusFixtures.ALLOCATION;
import static io.github.dra4j.resourceapi.internal.claim.StatusFixtures.EXACT_SPEC;
import static io.github.dra4j.resourceapi.internal.claim.StatusFixtures.claim;
import static io.github.dra4j.resourceapi.internal.claim.StatusFixtures.consumers;
import static io.github.dra4j.resourceapi.internal.claim.StatusFixtures.validate;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.resourceapi.ExpectedErrors;
import io.github.dra4j.resourceapi.FieldError;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The status update as a whole: metadata, {@code status.reservedFor}, and that a stored
 * allocation does not change (the status parts of Kubernetes' TestValidateClaimStatusUpdate and of
 * the claim strategy's declarative validation tests, in our words).
 */
class ResourceClaimStatusValidationTest {

  private static final String DELETED = ", \"deletionTimestamp\": \"2026-01-02T03:04:05Z\"";

  static Stream<Arguments> cases() {
    String allocated = "{\"allocation\": " + ALLOCATION + "}";
    String withoutAdminAccess = """
        {"allocation": {"devices": {"results": [{"request": "foo", "driver": "foo",
          "pool": "foo", "device": "foo"}]}}}""";
    String withLabelValueMinusOne = """
        {"allocation": {"devices": {"results": [{"request": "foo", "driver": "foo",
          "pool": "foo", "device": "foo", "adminAccess": false}]},
         "nodeSelector": {"nodeSelectorTerms": [{"matchExpressions": [
          {"key": "foo", "operator": "In", "values": ["-1"]}]}]}}}""";
    String tooLargeParameters = """
        {"allocation": {"devices": {"results": [{"request": "foo", "driver": "foo",
          "pool": "foo", "device": "foo"}], "config": [{"source": "FromClaim", "opaque": {
          "driver": "foo", "parameters": %s}}]}}}"""
        .formatted(StatusFixtures.objectOfLength(10 * 1024 + 1));
    String oneConsumer = """
        {"resource": "pods", "name": "foo", "uid": "1"}""";
    return Stream.of(
        // valid
        valid("no change", claim("{}"), claim("{}")),
        valid("an empty allocation", claim("{}"), claim("{\"allocation\": {}}")),
        valid("an allocation", claim("{}"), claim(allocated)),
        valid("an allocation without adminAccess", claim("{}"), claim(withoutAdminAccess)),
        valid("256 consumers of an allocated claim", claim(allocated),
            claim("{\"allocation\": " + ALLOCATION + ", \"reservedFor\": [" + consumers(256)
                + "]}")),
        valid("consumers of a claim allocated without adminAccess", claim(withoutAdminAccess),
            claim(withoutAdminAccess.replaceFirst("\\}$", ", \"reservedFor\": ["
                + consumers(256) + "]}"))),
        valid("allocation and 256 consumers at once", claim("{}"),
            claim("{\"allocation\": " + ALLOCATION + ", \"reservedFor\": [" + consumers(256)
                + "]}")),
        valid("a stored allocation that new rules refuse is not checked again",
            claim(withLabelValueMinusOne),
            claim(withLabelValueMinusOne.replaceFirst("\\}$", ", \"reservedFor\": ["
                + consumers(256) + "]}"))),
        valid("stored parameters over the size limit of new writes stay valid",
            claim(tooLargeParameters), claim(tooLargeParameters)),
        valid("the allocation removed", claim(allocated), claim("{}")),
        valid("consumers removed while the claim is being deleted",
            claim(EXACT_SPEC, "{\"allocation\": " + ALLOCATION + ", \"reservedFor\": ["
                + consumers(2) + "]}", DELETED),
            claim(EXACT_SPEC, "{\"allocation\": " + ALLOCATION + ", \"reservedFor\": ["
                + consumers(1) + "]}", DELETED)),
        valid("the same quantity written otherwise",
            claim(allocationWithCapacity("1Gi")), claim(allocationWithCapacity("1073741824"))),
        valid("the same allocation with fields in another order and empty lists",
            claim(allocated), claim("""
                {"allocation": {"devices": {"config": [], "results": [{"adminAccess": false,
                  "device": "foo", "pool": "foo", "driver": "foo", "request": "foo",
                  "bindingConditions": []}]}}}""")),
        // invalid
        invalid("257 consumers", claim(allocated),
            claim("{\"allocation\": " + ALLOCATION + ", \"reservedFor\": [" + consumers(257)
                + "]}"),
            "TooMany status.reservedFor"),
        invalid("a consumer twice", claim(allocated),
            claim("{\"allocation\": " + ALLOCATION + ", \"reservedFor\": [" + oneConsumer + ", "
                + oneConsumer + "]}"),
            "Duplicate status.reservedFor[1]"),
        invalid("two UIDs twice", claim(allocated),
            claim("{\"allocation\": " + ALLOCATION + ", \"reservedFor\": ["
                + "{\"resource\": \"pods\", \"name\": \"a\", \"uid\": \"1\"},"
                + "{\"resource\": \"pods\", \"name\": \"b\", \"uid\": \"2\"},"
                + "{\"resource\": \"pods\", \"name\": \"c\", \"uid\": \"1\"},"
                + "{\"resource\": \"pods\", \"name\": \"d\", \"uid\": \"3\"},"
                + "{\"resource\": \"pods\", \"name\": \"e\", \"uid\": \"3\"}]}"),
            "Duplicate status.reservedFor[2]", "Duplicate status.reservedFor[4]"),
        invalid("consumers without an allocation", claim("{}"),
            claim("{\"reservedFor\": [" + oneConsumer + "]}"),
            "Forbidden status.reservedFor"),
        invalid("a consumer without resource", claim(allocated),
            claim("{\"allocation\": " + ALLOCATION
                + ", \"reservedFor\": [{\"name\": \"foo\", \"uid\": \"1\"}]}"),
            "Required status.reservedFor[0].resource"),
        invalid("a consumer without name", claim(allocated),
            claim("{\"allocation\": " + ALLOCATION
                + ", \"reservedFor\": [{\"resource\": \"pods\", \"uid\": \"1\"}]}"),
            "Required status.reservedFor[0].name"),
        invalid("a consumer without uid", claim(allocated),
            claim("{\"allocation\": " + ALLOCATION
                + ", \"reservedFor\": [{\"resource\": \"pods\", \"name\": \"foo\"}]}"),
            "Required status.reservedFor[0].uid"),
        invalid("a consumer added while the claim is being deleted",
            claim(EXACT_SPEC, allocated, DELETED),
            claim(EXACT_SPEC, "{\"allocation\": " + ALLOCATION + ", \"reservedFor\": ["
                + oneConsumer + "]}", DELETED),
            "Forbidden status.reservedFor"),
        invalid("a consumer renamed while the claim is being deleted",
            claim(EXACT_SPEC, "{\"allocation\": " + ALLOCATION + ", \"reservedFor\": ["
                + oneConsumer + "]}", DELETED),
            claim(EXACT_SPEC, "{\"allocation\": " + ALLOCATION + ", \"reservedFor\": ["
                + oneConsumer.replace("foo", "bar") + "]}", DELETED),
            "Forbidden status.reservedFor"),
        invalid("the allocated driver changed", claim(allocated),
            claim(allocated.replace("\"driver\": \"foo\"", "\"driver\": \"foo-2\"")),
            "Invalid status.allocation"),
        invalid("a result added to the allocation", claim(allocated),
            claim("{\"allocation\": {\"devices\": {\"results\": [" + StatusFixtures.results(2)
                + "]}}}"),
            "Invalid status.allocation"),
        invalid("adminAccess false dropped from the allocation", claim(allocated),
            claim(withoutAdminAccess),
            "Invalid status.allocation"),
        invalid("another quantity", claim(allocationWithCapacity("1Gi")),
            claim(allocationWithCapacity("1G")),
            "Invalid status.allocation"),
        invalid("the name changed", claim("{}"), rename(claim("{}"), "bar"),
            "Invalid metadata.name"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void validatesTheStatusUpdate(String name, ResourceClaim old, ResourceClaim claim,
      String[] expected) {
    ExpectedErrors.assertErrors(validate(claim, old), expected);
  }

  @Test
  void wordsTheErrorsAsTheServerDoes() {
    ResourceClaim allocated = claim("{\"allocation\": " + ALLOCATION + "}");
    ResourceClaim duplicate = claim("{\"allocation\": " + ALLOCATION + ", \"reservedFor\": ["
        + consumers(1) + ", " + consumers(1) + "]}");
    assertThat(messages(validate(duplicate, allocated)))
        .containsExactly("status.reservedFor[1]: Duplicate value: \"0\"");
    ResourceClaim tooMany = claim("{\"allocation\": " + ALLOCATION + ", \"reservedFor\": ["
        + consumers(257) + "]}");
    assertThat(messages(validate(tooMany, allocated)))
        .containsExactly("status.reservedFor: Too many: 257: must have at most 256 items");
    ResourceClaim unallocated = claim("{\"reservedFor\": [" + consumers(1) + "]}");
    assertThat(messages(validate(unallocated, claim("{}")))).containsExactly(
        "status.reservedFor: Forbidden: may not be specified when `allocated` is not set");
    ResourceClaim deleted = claim(EXACT_SPEC, "{\"allocation\": " + ALLOCATION
        + ", \"reservedFor\": [" + consumers(1) + "]}", DELETED);
    assertThat(messages(validate(deleted, claim(EXACT_SPEC, "{\"allocation\": " + ALLOCATION
        + "}", DELETED)))).containsExactly("status.reservedFor: Forbidden: new entries may not"
            + " be added while `deallocationRequested` or `deletionTimestamp` are set");
    ResourceClaim noUid = claim("{\"allocation\": " + ALLOCATION
        + ", \"reservedFor\": [{\"resource\": \"pods\", \"name\": \"foo\"}]}");
    assertThat(messages(validate(noUid, allocated)))
        .containsExactly("status.reservedFor[0].uid: Required value");
  }

  @Test
  void printsTheChangedAllocationAsGoDoes() {
    ResourceClaim allocated = claim("{\"allocation\": " + ALLOCATION + "}");
    ResourceClaim changed = claim("{\"allocation\": " + ALLOCATION.replace(
        "\"driver\": \"foo\"", "\"driver\": \"foo-2\"") + "}");
    assertThat(messages(validate(changed, allocated))).containsExactly("status.allocation:"
        + " Invalid value: {\"Devices\":{\"Results\":[{\"Request\":\"foo\",\"Driver\":\"foo-2\","
        + "\"Pool\":\"foo\",\"Device\":\"foo\",\"AdminAccess\":false,\"Tolerations\":null,"
        + "\"BindingConditions\":null,\"BindingFailureConditions\":null,\"ShareID\":null,"
        + "\"ConsumedCapacity\":null}],\"Config\":null},\"NodeSelector\":null,"
        + "\"AllocationTimestamp\":null}: field is immutable");
    ResourceClaim configured = claim("""
        {"allocation": {"devices": {"results": [{"request": "foo", "driver": "foo",
          "pool": "foo", "device": "foo", "shareID": "%s", "consumedCapacity": {"memory": "1024Mi",
          "cores": "2"}}], "config": [{"source": "FromClass", "opaque": {"driver": "foo",
          "parameters": {"z": 1, "a": "<b>"}}}]},
         "nodeSelector": {"nodeSelectorTerms": [{"matchFields": [{"key": "metadata.name",
          "operator": "In", "values": ["worker-1"]}]}]},
         "allocationTimestamp": "2026-01-02T04:04:05.5+01:00"}}"""
        .formatted(StatusFixtures.UUID_1));
    assertThat(messages(validate(configured, allocated))).containsExactly("status.allocation:"
        + " Invalid value: {\"Devices\":{\"Results\":[{\"Request\":\"foo\",\"Driver\":\"foo\","
        + "\"Pool\":\"foo\",\"Device\":\"foo\",\"AdminAccess\":null,\"Tolerations\":null,"
        + "\"BindingConditions\":null,\"BindingFailureConditions\":null,"
        + "\"ShareID\":\"" + StatusFixtures.UUID_1 + "\","
        + "\"ConsumedCapacity\":{\"cores\":\"2\",\"memory\":\"1Gi\"}}],"
        + "\"Config\":[{\"Source\":\"FromClass\",\"Requests\":null,\"Opaque\":{\"Driver\":\"foo\","
        + "\"Parameters\":{\"z\":1,\"a\":\"\\u003cb\\u003e\"}}}]},"
        + "\"NodeSelector\":{\"NodeSelectorTerms\":[{\"MatchExpressions\":null,"
        + "\"MatchFields\":[{\"Key\":\"metadata.name\",\"Operator\":\"In\","
        + "\"Values\":[\"worker-1\"]}]}]},\"AllocationTimestamp\":\"2026-01-02T03:04:05Z\"}:"
        + " field is immutable");
  }

  private static String allocationWithCapacity(String quantity) {
    return """
        {"allocation": {"devices": {"results": [{"request": "foo", "driver": "foo",
          "pool": "foo", "device": "foo", "shareID": "%s",
          "consumedCapacity": {"memory": "%s"}}]}}}""".formatted(StatusFixtures.UUID_1, quantity);
  }

  private static ResourceClaim rename(ResourceClaim claim, String name) {
    claim.getMetadata().setName(name);
    return claim;
  }

  private static List<String> messages(List<FieldError> errors) {
    return errors.stream().map(FieldError::toString).toList();
  }

  private static Arguments valid(String name, ResourceClaim old, ResourceClaim claim) {
    return Arguments.of(name, old, claim, new String[0]);
  }

  private static Arguments invalid(String name, ResourceClaim old, ResourceClaim claim,
      String... expected) {
    return Arguments.of(name, old, claim, expected);
  }
}
