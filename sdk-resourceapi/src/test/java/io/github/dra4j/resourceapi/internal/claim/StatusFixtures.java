package io.github.dra4j.resourceapi.internal.claim;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.resourceapi.FeatureGates;
import io.github.dra4j.resourceapi.FieldError;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import tools.jackson.databind.json.JsonMapper;

/**
 * Claims for the status tests, written as JSON: a claim with one request {@code foo} (or with a
 * {@code firstAvailable} request {@code foo} of sub-requests {@code foo} and {@code bar}) and a
 * given status.
 */
final class StatusFixtures {

  private static final JsonMapper MAPPER = JsonMapper.builder().build();

  /** A request named {@code foo} for one device of class {@code foo}. */
  static final String EXACT_SPEC = """
      {"devices": {"requests": [{"name": "foo", "exactly": {
        "deviceClassName": "foo", "allocationMode": "ExactCount", "count": 1}}]}}""";

  /** A request {@code foo} whose first available sub-request is {@code foo} or {@code bar}. */
  static final String FIRST_AVAILABLE_SPEC = """
      {"devices": {"requests": [{"name": "foo", "firstAvailable": [
        {"name": "foo", "deviceClassName": "foo", "allocationMode": "ExactCount", "count": 1},
        {"name": "bar", "deviceClassName": "foo", "allocationMode": "ExactCount", "count": 1}
      ]}]}}""";

  /** One device {@code foo/foo/foo} allocated for request {@code foo}. */
  static final String ALLOCATION = """
      {"devices": {"results": [{"request": "foo", "driver": "foo", "pool": "foo",
        "device": "foo", "adminAccess": false}]}}""";

  /** A valid condition, to be formatted with its type. */
  static final String CONDITION = """
      {"type": "%s", "status": "True", "reason": "test_reason",
       "lastTransitionTime": "2026-01-02T03:04:05Z", "observedGeneration": 0}""";

  /** A valid UUID. */
  static final String UUID_1 = "123e4567-e89b-12d3-a456-426614174000";
  /** Another valid UUID. */
  static final String UUID_2 = "0b1a2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";

  private StatusFixtures() {}

  /**
   * A claim with the {@link #EXACT_SPEC} and a status.
   *
   * @param status the status as JSON
   * @return the claim
   */
  static ResourceClaim claim(String status) {
    return claim(EXACT_SPEC, status, "");
  }

  /**
   * A claim with a spec, a status and more metadata.
   *
   * @param spec the spec as JSON
   * @param status the status as JSON
   * @param metadata more metadata fields, as JSON members with a leading comma, or empty
   * @return the claim
   */
  static ResourceClaim claim(String spec, String status, String metadata) {
    String json = """
        {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
         "metadata": {"name": "foo", "namespace": "ns", "resourceVersion": "1"%s},
         "spec": %s, "status": %s}""".formatted(metadata, spec, status);
    try {
      return MAPPER.readValue(json, ResourceClaim.class);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("cannot read " + json, e);
    }
  }

  /**
   * Validates a status update with Kubernetes 1.36's default gates.
   *
   * @param claim the new claim
   * @param old the stored claim
   * @return the errors
   */
  static List<FieldError> validate(ResourceClaim claim, ResourceClaim old) {
    return ResourceClaimStatusValidation.validateStatusUpdate(claim, old,
        FeatureGates.kubernetes136());
  }

  /**
   * Consumers {@code pods/foo-<i>} with UIDs {@code <i>}.
   *
   * @param count how many
   * @return the JSON array's members
   */
  static String consumers(int count) {
    return IntStream.range(0, count)
        .mapToObj(i -> "{\"resource\": \"pods\", \"name\": \"foo-" + i + "\", \"uid\": \"" + i
            + "\"}")
        .collect(Collectors.joining(", "));
  }

  /**
   * Valid conditions of types {@code test-<i>}.
   *
   * @param count how many
   * @return the JSON array's members
   */
  static String conditions(int count) {
    return IntStream.range(0, count).mapToObj(i -> CONDITION.formatted("test-" + i))
        .collect(Collectors.joining(", "));
  }

  /**
   * Distinct interface addresses {@code 10.9.8.<i>/24}.
   *
   * @param count how many
   * @return the JSON array's members
   */
  static String ips(int count) {
    return IntStream.range(0, count).mapToObj(i -> "\"10.9.8." + i + "/24\"")
        .collect(Collectors.joining(", "));
  }

  /**
   * Allocation results {@code foo/foo/device-<i>} for request {@code foo}.
   *
   * @param count how many
   * @return the JSON array's members
   */
  static String results(int count) {
    return IntStream.range(0, count)
        .mapToObj(i -> "{\"request\": \"foo\", \"driver\": \"foo\", \"pool\": \"foo\","
            + " \"device\": \"device-" + i + "\"}")
        .collect(Collectors.joining(", "));
  }

  /**
   * A JSON object whose compact form has exactly the given length: {@code {"str":"xx...x"}}.
   *
   * @param length the length in bytes, at least 10
   * @return the object's JSON
   */
  static String objectOfLength(int length) {
    return "{\"str\":\"" + "x".repeat(length - 10) + "\"}";
  }
}
