package io.github.dra4j.resourceapi.internal.claim;

import static io.github.dra4j.resourceapi.internal.claim.StatusFixtures.EXACT_SPEC;
import static io.github.dra4j.resourceapi.internal.claim.StatusFixtures.FIRST_AVAILABLE_SPEC;
import static io.github.dra4j.resourceapi.internal.claim.StatusFixtures.UUID_1;
import static io.github.dra4j.resourceapi.internal.claim.StatusFixtures.claim;
import static io.github.dra4j.resourceapi.internal.claim.StatusFixtures.validate;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.resourceapi.ExpectedErrors;
import io.github.dra4j.resourceapi.FieldError;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A new {@code status.allocation}: results, configuration and node selector (the allocation
 * cases of Kubernetes' TestValidateClaimStatusUpdate and of the claim strategy's declarative
 * validation tests, in our words).
 */
class AllocationResultValidationTest {

  private static final String RESULTS = "status.allocation.devices.results";
  private static final String CONFIG = "status.allocation.devices.config";
  private static final String BAD_NAME = "!@#$%^";
  private static final String PARAMETERS = "{\"kind\": \"foo\", \"apiVersion\": \"dra.example.com/v1\"}";

  static Stream<Arguments> cases() {
    return Stream.of(
        // valid
        valid("a sub-request", FIRST_AVAILABLE_SPEC, result("\"request\": \"foo/foo\"")),
        valid("the second sub-request", FIRST_AVAILABLE_SPEC,
            result("\"request\": \"foo/bar\"")),
        valid("32 results", EXACT_SPEC, "{\"devices\": {\"results\": ["
            + StatusFixtures.results(32) + "]}}"),
        valid("configuration from the claim and from a class", EXACT_SPEC,
            withConfig(config("FromClaim", "[\"foo\"]", PARAMETERS) + ", "
                + config("FromClass", "[]", PARAMETERS))),
        valid("64 configurations", EXACT_SPEC, withConfig(IntStream.range(0, 64)
            .mapToObj(i -> config("FromClass", "[]", PARAMETERS))
            .collect(Collectors.joining(", ")))),
        valid("parameters of 10 KiB", EXACT_SPEC,
            withConfig(config("FromClaim", "[]", StatusFixtures.objectOfLength(10 * 1024)))),
        valid("4 binding conditions and a failure condition", EXACT_SPEC,
            result(conditions("bindingConditions", 4) + ", "
                + conditions("bindingFailureConditions", 1))),
        valid("a share ID", EXACT_SPEC, result("\"shareID\": \"" + UUID_1 + "\"")),
        valid("a driver name in mixed case", EXACT_SPEC,
            result("\"driver\": \"DRA.Example.COM\"")),
        valid("a driver name of 63 characters", EXACT_SPEC,
            result("\"driver\": \"" + "a".repeat(63) + "\"")),
        valid("a pool name with a slash", EXACT_SPEC,
            result("\"pool\": \"dra.example.com/pool-a\"")),
        valid("a node selector", EXACT_SPEC, """
            {"devices": {"results": [{"request": "foo", "driver": "foo", "pool": "foo",
              "device": "foo"}]}, "nodeSelector": {"nodeSelectorTerms": [{"matchFields": [
              {"key": "metadata.name", "operator": "In", "values": ["worker-1"]}]}]}}"""),
        valid("both node operations skipped", EXACT_SPEC, result(
            "\"skipNodeOperations\": [\"NodePrepareResources\", \"NodeUnprepareResources\"]")),
        // Kubernetes 1.37 also checks the tolerations of a result.
        valid("a toleration with an unknown operator (1.36)", EXACT_SPEC,
            result("\"tolerations\": [{\"key\": \"a\", \"operator\": \"Sometimes\"}]")),
        // invalid
        invalid("a request that is not a name", EXACT_SPEC,
            result("\"request\": \"" + BAD_NAME + "\""),
            "Invalid " + RESULTS + "[0].request", "Invalid " + RESULTS + "[0].request"),
        invalid("a request with two slashes", FIRST_AVAILABLE_SPEC,
            result("\"request\": \"foo/foo/foo\""),
            "Invalid " + RESULTS + "[0].request"),
        invalid("a sub-request the request does not have", FIRST_AVAILABLE_SPEC,
            result("\"request\": \"foo/baz\""),
            "Invalid " + RESULTS + "[0].request"),
        invalid("a request and a sub-request that are not names", FIRST_AVAILABLE_SPEC,
            result("\"request\": \"!@#$%^/&^%$\""),
            "Invalid " + RESULTS + "[0].request", "Invalid " + RESULTS + "[0].request",
            "Invalid " + RESULTS + "[0].request"),
        invalid("a request the claim does not have", EXACT_SPEC,
            result("\"request\": \"bar\""),
            "Invalid " + RESULTS + "[0].request"),
        invalid("a sub-request of a request without sub-requests", EXACT_SPEC,
            result("\"request\": \"foo/foo\""),
            "Invalid " + RESULTS + "[0].request"),
        invalid("an empty node selector", EXACT_SPEC, "{\"nodeSelector\": {}}",
            "Required status.allocation.nodeSelector.nodeSelectorTerms"),
        invalid("a node selector with an invalid label value", EXACT_SPEC, """
            {"devices": {"results": [{"request": "foo", "driver": "foo", "pool": "foo",
              "device": "foo"}]}, "nodeSelector": {"nodeSelectorTerms": [{"matchExpressions": [
              {"key": "foo", "operator": "In", "values": ["-1"]}]}]}}""",
            "Invalid status.allocation.nodeSelector.nodeSelectorTerms[0].matchExpressions[0]"
                + ".values[0]"),
        invalid("a configuration for a request that is not a name", EXACT_SPEC,
            withConfig(config("FromClaim", "[\"foo\", \"" + BAD_NAME + "\"]", PARAMETERS)),
            "Invalid " + CONFIG + "[0].requests[1]", "Invalid " + CONFIG + "[0].requests[1]"),
        invalid("configurations without source, opaque part, driver or parameters", EXACT_SPEC,
            withConfig(config("FromClaim", "[]", PARAMETERS) + ", "
                + config("", "[]", PARAMETERS) + ", "
                + config("no-such-source", "[]", PARAMETERS) + ", "
                + "{\"source\": \"FromClaim\"}, "
                + "{\"source\": \"FromClaim\", \"opaque\": {}}, "
                + config("FromClaim", "[]", StatusFixtures.objectOfLength(10 * 1024)) + ", "
                + config("FromClaim", "[]", StatusFixtures.objectOfLength(10 * 1024 + 1))),
            "Required " + CONFIG + "[1].source", "NotSupported " + CONFIG + "[2].source",
            "Required " + CONFIG + "[3].opaque", "Required " + CONFIG + "[4].opaque.driver",
            "Required " + CONFIG + "[4].opaque.parameters",
            "TooLong " + CONFIG + "[6].opaque.parameters"),
        invalid("a configuration naming a request twice", EXACT_SPEC,
            withConfig(config("FromClaim", "[\"foo\", \"foo\"]", PARAMETERS)),
            "Duplicate " + CONFIG + "[0].requests[1]"),
        invalid("33 results", EXACT_SPEC, "{\"devices\": {\"results\": ["
            + StatusFixtures.results(33) + "]}}",
            "TooMany " + RESULTS),
        invalid("65 configurations", EXACT_SPEC, withConfig(IntStream.range(0, 65)
            .mapToObj(i -> config("FromClass", "[]", PARAMETERS))
            .collect(Collectors.joining(", "))),
            "TooMany " + CONFIG),
        invalid("5 binding conditions", EXACT_SPEC,
            result(conditions("bindingConditions", 5) + ", "
                + conditions("bindingFailureConditions", 1)),
            "TooMany " + RESULTS + "[0].bindingConditions"),
        invalid("5 binding failure conditions", EXACT_SPEC,
            result(conditions("bindingConditions", 1) + ", "
                + conditions("bindingFailureConditions", 5)),
            "TooMany " + RESULTS + "[0].bindingFailureConditions"),
        invalid("binding failure conditions without binding conditions", EXACT_SPEC,
            result(conditions("bindingFailureConditions", 1)),
            "Invalid " + RESULTS + "[0].bindingConditions"),
        invalid("a share ID that is no UUID", EXACT_SPEC,
            result("\"shareID\": \"invalid-uid\""),
            "Invalid " + RESULTS + "[0].shareID"),
        invalid("a share ID in upper case", EXACT_SPEC,
            result("\"shareID\": \"123e4567-E89b-12d3-A456-426614174000\""),
            "Invalid " + RESULTS + "[0].shareID"),
        invalid("a driver name of 64 characters", EXACT_SPEC,
            result("\"driver\": \"" + "a".repeat(64) + "\""),
            "TooLong " + RESULTS + "[0].driver"),
        invalid("a driver name with an underscore", EXACT_SPEC,
            result("\"driver\": \"dra_example.com\""),
            "Invalid " + RESULTS + "[0].driver"),
        invalid("no pool", EXACT_SPEC, result("\"pool\": \"\""),
            "Required " + RESULTS + "[0].pool"),
        invalid("a pool name part that is no DNS subdomain", EXACT_SPEC,
            result("\"pool\": \"a/Not_Valid\""),
            "Invalid " + RESULTS + "[0].pool"),
        invalid("a pool name over 253 bytes", EXACT_SPEC,
            result("\"pool\": \"" + "a".repeat(253) + "/" + "a".repeat(253) + "\""),
            "TooLong " + RESULTS + "[0].pool"),
        invalid("a device name that is no DNS label", EXACT_SPEC,
            result("\"device\": \"Dev_0\""),
            "Invalid " + RESULTS + "[0].device"),
        invalid("preparation skipped without unpreparation", EXACT_SPEC,
            result("\"skipNodeOperations\": [\"NodePrepareResources\"]"),
            "Invalid " + RESULTS + "[0].skipNodeOperations"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void validatesANewAllocation(String name, String spec, String allocation, String[] expected) {
    ResourceClaim old = claim(spec, "{}", "");
    ResourceClaim claim = claim(spec, "{\"allocation\": " + allocation + "}", "");
    ExpectedErrors.assertErrors(validate(claim, old), expected);
  }

  @Test
  void wordsTheErrorsAsTheServerDoes() {
    ResourceClaim old = claim(FIRST_AVAILABLE_SPEC, "{}", "");
    ResourceClaim claim = claim(FIRST_AVAILABLE_SPEC, "{\"allocation\": "
        + result("\"request\": \"foo/baz\"") + "}", "");
    assertThat(validate(claim, old)).map(FieldError::toString).containsExactly(RESULTS
        + "[0].request: Invalid value: \"foo/baz\": must be the name of a request in the claim"
        + " or the name of a request and a subrequest separated by '/'");
    claim = claim(EXACT_SPEC, "{\"allocation\": " + withConfig(config("", "[]", PARAMETERS) + ", "
        + config("FromSomewhere", "[]", PARAMETERS) + ", {\"source\": \"FromClass\"}") + "}", "");
    assertThat(validate(claim, old)).map(FieldError::toString).containsExactly(
        CONFIG + "[0].source: Required value",
        CONFIG + "[1].source: Unsupported value: \"FromSomewhere\": supported values:"
            + " \"FromClaim\", \"FromClass\"",
        CONFIG + "[2].opaque: Required value");
    claim = claim(EXACT_SPEC, "{\"allocation\": {\"devices\": {\"results\": ["
        + StatusFixtures.results(33) + "]}}}", "");
    assertThat(validate(claim, old)).map(FieldError::toString)
        .containsExactly(RESULTS + ": Too many: 33: must have at most 32 items");
    claim = claim(EXACT_SPEC, "{\"allocation\": "
        + result("\"skipNodeOperations\": [\"NodePrepareResources\"]") + "}", "");
    assertThat(validate(claim, old)).map(FieldError::toString).containsExactly(RESULTS
        + "[0].skipNodeOperations: Invalid value: [\"NodePrepareResources\"]:"
        + " NodePrepareResources cannot be skipped unless"
        + " NodeUnprepareResources is also skipped");
  }

  /** An allocation of one device {@code foo/foo/foo} for request {@code foo}, with changes. */
  private static String result(String fields) {
    String base = "\"request\": \"foo\", \"driver\": \"foo\", \"pool\": \"foo\","
        + " \"device\": \"foo\"";
    // Later duplicate keys win when Jackson reads the object.
    return "{\"devices\": {\"results\": [{" + base + ", " + fields + "}]}}";
  }

  private static String withConfig(String configs) {
    return "{\"devices\": {\"results\": [{\"request\": \"foo\", \"driver\": \"foo\","
        + " \"pool\": \"foo\", \"device\": \"foo\"}], \"config\": [" + configs + "]}}";
  }

  private static String config(String source, String requests, String parameters) {
    return "{\"source\": \"" + source + "\", \"requests\": " + requests
        + ", \"opaque\": {\"driver\": \"dra.example.com\", \"parameters\": " + parameters + "}}";
  }

  private static String conditions(String field, int count) {
    return "\"" + field + "\": [" + IntStream.range(0, count)
        .mapToObj(i -> "\"" + field.replace("binding", "").toLowerCase(Locale.ROOT) + "-" + i
            + "\"")
        .collect(Collectors.joining(", ")) + "]";
  }

  private static Arguments valid(String name, String spec, String allocation) {
    return Arguments.of(name, spec, allocation, new String[0]);
  }

  private static Arguments invalid(String name, String spec, String allocation,
      String... expected) {
    return Arguments.of(name, spec, allocation, expected);
  }
}
