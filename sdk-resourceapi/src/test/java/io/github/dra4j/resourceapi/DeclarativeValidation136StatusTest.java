package io.github.dra4j.resourceapi;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.resourceapi.internal.claim.ResourceClaimStatusValidation;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The hand-written wording of a 1.36 server for a claim's status where the declarative tags of
 * {@code resource.k8s.io/v1} word the same rule differently (see {@link
 * DeclarativeValidation136Test} for why 1.36 returns the hand-written errors). The changed
 * allocation ({@code field is immutable}; 1.37: {@code field cannot be modified once set}) and the
 * duplicate consumer ({@code Duplicate value: "<uid>"}; 1.37: the whole reference) are pinned by
 * the status tests.
 */
class DeclarativeValidation136StatusTest {

  private static final String SPEC = "{\"devices\": {\"requests\": [{\"name\": \"foo\","
      + " \"exactly\": {\"deviceClassName\": \"foo\", \"allocationMode\": \"ExactCount\","
      + " \"count\": 1}}]}}";

  private static final String RESULTS = "status.allocation.devices.results[0]";

  private static ResourceClaim claim(String status) {
    return TestJson.read("{\"apiVersion\": \"resource.k8s.io/v1\", \"kind\": \"ResourceClaim\","
        + " \"metadata\": {\"name\": \"foo\", \"namespace\": \"ns\", \"resourceVersion\": \"1\"},"
        + " \"spec\": " + SPEC + ", \"status\": " + status + "}", ResourceClaim.class);
  }

  /** The errors of allocating one device, written as the JSON members of its result. */
  private static List<String> allocating(String result) {
    ResourceClaim allocated = claim("{\"allocation\": {\"devices\": {\"results\": [{"
        + "\"request\": \"foo\", \"device\": \"foo\", " + result + "}]}}}");
    return ResourceClaimStatusValidation.validateStatusUpdate(allocated, claim("{}"),
        FeatureGates.kubernetes136()).stream().map(FieldError::toString).toList();
  }

  // +k8s:format=k8s-uuid on results[].shareID (and status.devices[].shareID).
  @Test
  void shareIdOfTheWrongLengthNamesTheLength() {
    // Kubernetes 1.37: ...shareID: Invalid value: "invalid-uid": must be a lowercase UUID in
    // 8-4-4-4-12 format
    assertThat(allocating("\"driver\": \"foo\", \"pool\": \"foo\", \"shareID\": \"invalid-uid\""))
        .containsExactly(RESULTS + ".shareID: Invalid value: \"invalid-uid\": error validating"
            + " uid: invalid UUID length: 11");
  }

  @Test
  void upperCaseShareIdAsksForTheNormalizedForm() {
    String uid = "123e4567-E89b-12d3-A456-426614174000";
    // Kubernetes 1.37: the same words as for any malformed UUID (8-4-4-4-12 format).
    assertThat(allocating("\"driver\": \"foo\", \"pool\": \"foo\", \"shareID\": \"" + uid + "\""))
        .containsExactly(RESULTS + ".shareID: Invalid value: \"" + uid + "\": uid must be in"
            + " RFC 4122 normalized form, `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` with lowercase"
            + " hexadecimal characters");
  }

  // +k8s:format=k8s-resource-pool-name on results[].pool.
  @Test
  void emptyPoolSegmentIsAnInvalidEmptySubdomain() {
    // Kubernetes 1.37: ...pool: Invalid value: "a//b": segment 1: must not be empty
    assertThat(allocating("\"driver\": \"foo\", \"pool\": \"a//b\"")).containsExactly(
        RESULTS + ".pool: Invalid value: \"\": a lowercase RFC 1123 subdomain must consist of"
            + " lower case alphanumeric characters, '-' or '.', and must start and end with an"
            + " alphanumeric character (e.g. 'example.com', regex used for validation is"
            + " '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
  }

  @Test
  void badPoolSegmentHasNoSegmentNumber() {
    // Kubernetes 1.37: ...pool: Invalid value: "B": segment 1: a lowercase RFC 1123 subdomain...
    assertThat(allocating("\"driver\": \"foo\", \"pool\": \"a/B\"")).containsExactly(
        RESULTS + ".pool: Invalid value: \"B\": a lowercase RFC 1123 subdomain must consist of"
            + " lower case alphanumeric characters, '-' or '.', and must start and end with an"
            + " alphanumeric character (e.g. 'example.com', regex used for validation is"
            + " '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
  }

  // +k8s:maxLength=63 on results[].driver.
  @Test
  void longResultDriverIsCountedInBytes() {
    // Kubernetes 1.37: ...driver: Too long: may not be more than 63 characters
    assertThat(allocating("\"driver\": \"" + "a".repeat(64) + "\", \"pool\": \"foo\""))
        .containsExactly(RESULTS + ".driver: Too long: may not be more than 63 bytes");
  }
}
