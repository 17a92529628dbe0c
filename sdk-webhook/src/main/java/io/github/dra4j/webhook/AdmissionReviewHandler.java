package io.github.dra4j.webhook;

import io.github.dra4j.resourceclaim.config.ConfigProblem;
import io.github.dra4j.resourceclaim.config.ConfigScheme;
import io.github.dra4j.webhook.internal.review.ClaimConfigCheck;
import io.github.dra4j.webhook.internal.review.ReviewRequest;
import io.github.dra4j.webhook.internal.review.ReviewResponse;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Answers {@code admission.k8s.io/v1} AdmissionReviews of ResourceClaims and
 * ResourceClaimTemplates by validating every opaque device configuration of one driver with the
 * driver's {@link ConfigScheme}, the same scheme its kubelet plugin decodes the configurations
 * with after allocation, so the webhook never admits a configuration the plugin refuses, nor the
 * other way round. Transport-free: {@link AdmissionWebhookServer} serves it over HTTPS, and a
 * test or another server can call {@link #handle(byte[])} directly. Immutable and thread-safe.
 *
 * <p>What is validated: CREATE and UPDATE of {@code resourceclaims} and {@code
 * resourceclaimtemplates} in {@code resource.k8s.io} v1, v1beta2 and v1beta1; the configurations
 * are at {@code spec.devices.config[]} in a claim and {@code spec.spec.devices.config[]} in a
 * template. Entries whose {@code opaque.driver} is another driver are ignored. All problems of one
 * object go into one denial with reason {@code Invalid} (HTTP status 422 in the returned status),
 * each naming its path, such as {@code
 * spec.devices.config[1].opaque.parameters.sharing.strategy: unknown value "Fast"}; the status
 * details list them again as causes, one per field. Anything else (another kind or version, a
 * subresource, DELETE, CONNECT) is allowed, with a warning where the webhook was asked about
 * something it does not know, so a too-wide registration never blocks a cluster.
 */
public final class AdmissionReviewHandler {

  /** The {@code resource.k8s.io} versions whose claims and templates are validated. */
  public static final List<String> VERSIONS = List.of("v1", "v1beta2", "v1beta1");

  private static final String GROUP = "resource.k8s.io";
  private static final Set<String> VALIDATED_OPERATIONS = Set.of("CREATE", "UPDATE");

  private final String driverName;
  private final ClaimConfigCheck check;

  private AdmissionReviewHandler(String driverName, ConfigScheme<?> scheme) {
    this.driverName = driverName;
    this.check = new ClaimConfigCheck(driverName, scheme);
  }

  /**
   * A handler for one driver.
   *
   * @param driverName the driver name, as in {@code opaque.driver}
   * @param scheme the driver's configuration types: share it with the kubelet plugin
   * @return the handler
   */
  public static AdmissionReviewHandler of(String driverName, ConfigScheme<?> scheme) {
    Objects.requireNonNull(driverName, "driverName");
    Objects.requireNonNull(scheme, "scheme");
    if (driverName.isEmpty()) {
      throw new IllegalArgumentException("driverName must not be empty");
    }
    return new AdmissionReviewHandler(driverName, scheme);
  }

  /**
   * The driver whose configurations this handler validates.
   *
   * @return the driver name
   */
  public String driverName() {
    return driverName;
  }

  /**
   * Reviews one AdmissionReview.
   *
   * @param body the request body: an {@code admission.k8s.io/v1} AdmissionReview as UTF-8 JSON
   * @return the decision, with the response body to send
   * @throws InvalidAdmissionReviewException if the body is not such a review (answer with 400)
   */
  public AdmissionDecision handle(byte[] body) {
    Objects.requireNonNull(body, "body");
    ReviewRequest request = ReviewRequest.parse(body);
    if (!VALIDATED_OPERATIONS.contains(request.operation())) {
      return ReviewResponse.allow(request, List.of());
    }
    boolean claim = request.kind().equals("ResourceClaim");
    boolean template = request.kind().equals("ResourceClaimTemplate");
    if (!GROUP.equals(request.group()) || !VERSIONS.contains(request.version())
        || !(claim || template)) {
      return ReviewResponse.allow(request, List.of("the device configuration webhook of "
          + driverName + " does not validate " + request.apiVersion() + " " + request.kind()
          + "; allowed"));
    }
    if (!request.subResource().isEmpty()) {
      return ReviewResponse.allow(request, List.of("the device configuration webhook of "
          + driverName + " does not validate the " + request.subResource()
          + " subresource; allowed"));
    }
    List<ConfigProblem> problems = check.check(request.object(), template);
    if (problems.isEmpty()) {
      return ReviewResponse.allow(request, List.of());
    }
    return ReviewResponse.deny(request, driverName, problems);
  }
}
