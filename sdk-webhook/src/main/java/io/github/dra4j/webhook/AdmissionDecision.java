package io.github.dra4j.webhook;

import io.github.dra4j.resourceclaim.config.ConfigProblem;
import java.util.List;
import java.util.Objects;

/**
 * The answer to one AdmissionReview: whether the object is allowed, why not, and the response
 * body to send back.
 *
 * @param uid the request's UID, echoed in the response
 * @param allowed whether the object is admitted
 * @param problems every problem found, each with its path from the object's root; empty when
 *     allowed
 * @param warnings warnings for the client (kubectl prints them), such as an object the webhook
 *     does not validate
 * @param response the {@code admission.k8s.io/v1} AdmissionReview response as UTF-8 JSON
 * @param resource what was reviewed, for meters and logs: {@value #RESOURCE_CLAIMS}, {@value
 *     #RESOURCE_CLAIM_TEMPLATES}, or {@value #OTHER_RESOURCE} for anything else (a subresource,
 *     another kind or version), which is allowed unchecked; never a client's own text
 */
// The response is the bytes written to the API server as they are; a decision is never compared
// or hashed, so equals comparing the array by identity costs nothing.
@SuppressWarnings("ArrayRecordComponent")
public record AdmissionDecision(String uid, boolean allowed, List<ConfigProblem> problems,
    List<String> warnings, byte[] response, String resource) {

  /** {@link #resource()} of a ResourceClaim. */
  public static final String RESOURCE_CLAIMS = "resourceclaims";

  /** {@link #resource()} of a ResourceClaimTemplate. */
  public static final String RESOURCE_CLAIM_TEMPLATES = "resourceclaimtemplates";

  /** {@link #resource()} of anything the webhook does not validate. */
  public static final String OTHER_RESOURCE = "other";

  /**
   * Checks and copies.
   *
   * @param uid not null
   * @param allowed the decision
   * @param problems not null; copied
   * @param warnings not null; copied
   * @param response not null
   * @param resource one of the three values above
   */
  public AdmissionDecision {
    Objects.requireNonNull(uid, "uid");
    problems = List.copyOf(problems);
    warnings = List.copyOf(warnings);
    Objects.requireNonNull(response, "response");
    if (!RESOURCE_CLAIMS.equals(resource) && !RESOURCE_CLAIM_TEMPLATES.equals(resource)
        && !OTHER_RESOURCE.equals(resource)) {
      throw new IllegalArgumentException("resource must be " + RESOURCE_CLAIMS + ", "
          + RESOURCE_CLAIM_TEMPLATES + " or " + OTHER_RESOURCE + ", got " + resource);
    }
  }
}
