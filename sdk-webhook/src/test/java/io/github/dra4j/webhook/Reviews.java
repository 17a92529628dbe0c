package io.github.dra4j.webhook;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * AdmissionReview bodies as the API server sends them, from the claims in {@code
 * src/test/resources/reviews} (one per {@code resource.k8s.io} version, each with that version's
 * request shape). A template wraps the claim's spec as {@code spec.spec}. Stateless.
 */
final class Reviews {

  private Reviews() {}

  /** The kinds of object reviewed. */
  enum Kind {
    CLAIM("ResourceClaim", "resourceclaims"), TEMPLATE("ResourceClaimTemplate",
        "resourceclaimtemplates");

    final String kind;
    final String resource;

    Kind(String kind, String resource) {
      this.kind = kind;
      this.resource = resource;
    }

    /** Where the configs are in this kind of object. */
    String configPath() {
      return this == CLAIM ? "spec.devices.config" : "spec.spec.devices.config";
    }
  }

  /** The object, with {@code configs} (a JSON array) as its device configurations. */
  static String object(String version, Kind kind, String configs) {
    String claim = resource("claim-" + version + ".json").replace("@CONFIGS@", configs);
    if (kind == Kind.CLAIM) {
      return claim;
    }
    int spec = claim.indexOf("\"spec\":");
    int status = claim.lastIndexOf(",\n  \"status\"");
    return "{\"apiVersion\": \"resource.k8s.io/" + version + "\", "
        + "\"kind\": \"ResourceClaimTemplate\", "
        + "\"metadata\": {\"name\": \"shared-gpus\", \"namespace\": \"team-a\"}, "
        + "\"spec\": {\"metadata\": {\"labels\": {\"app\": \"inference\"}}, "
        + claim.substring(spec, status) + "}}";
  }

  /** A CREATE review of {@link #object}. */
  static String review(String version, Kind kind, String configs) {
    return review("CREATE", version, kind, object(version, kind, configs));
  }

  static String review(String operation, String version, Kind kind, String object) {
    return review(operation, "resource.k8s.io", version, kind.kind, kind.resource, object);
  }

  static String review(String operation, String group, String version, String kind,
      String resource, String object) {
    return resource("review.json")
        .replace("@UID@", UUID.randomUUID().toString())
        .replace("\"group\": \"resource.k8s.io\"", "\"group\": \"" + group + "\"")
        .replace("@VERSION@", version)
        .replace("@KIND@", kind)
        .replace("@RESOURCE@", resource)
        .replace("@OPERATION@", operation)
        .replace("@OBJECT@", object);
  }

  /** One opaque config entry of the driver {@link SharingConfig#DRIVER}. */
  static String entry(String requests, String parameters) {
    return entry(SharingConfig.DRIVER, requests, parameters);
  }

  static String entry(String driver, String requests, String parameters) {
    return "{\"requests\": [" + requests + "], \"opaque\": {\"driver\": \"" + driver
        + "\", \"parameters\": " + parameters + "}}";
  }

  /** GpuConfig parameters with the given fields after apiVersion and kind. */
  static String gpuConfig(String fields) {
    return "{\"apiVersion\": \"" + SharingConfig.API_VERSION + "\", \"kind\": \"GpuConfig\""
        + (fields.isEmpty() ? "" : ", " + fields) + "}";
  }

  private static String resource(String name) {
    try (InputStream in = Reviews.class.getResourceAsStream("/reviews/" + name)) {
      if (in == null) {
        throw new IllegalStateException("no test resource reviews/" + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
