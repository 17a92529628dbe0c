package io.github.dra4j.webhook.internal.review;

import io.github.dra4j.resourceclaim.config.ConfigProblem;
import io.github.dra4j.webhook.AdmissionDecision;
import java.util.List;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Builds {@code admission.k8s.io/v1} AdmissionReview responses. A denial carries a {@code
 * metav1.Status} as the API server expects it: status {@code Failure}, reason {@code Invalid},
 * code 422, one message with every problem, and {@code details.causes} with one {@code
 * FieldValueInvalid} cause per problem, so clients that read causes see each field. A problem's
 * message is cut at {@value #MAX_PROBLEM_CHARS} characters and the whole message at {@value
 * #MAX_MESSAGE_CHARS}, so that a value of megabytes quoted in a problem does not come back whole.
 * Stateless.
 */
public final class ReviewResponse {

  /** The most characters of one problem's message in a denial. */
  public static final int MAX_PROBLEM_CHARS = 1024;

  /** The most characters of a denial's whole message. */
  public static final int MAX_MESSAGE_CHARS = 16 * 1024;

  private static final JsonMapper MAPPER = JsonMapper.builder().build();

  private ReviewResponse() {}

  /**
   * What a request reviews, as {@link AdmissionDecision#resource()} names it: a claim or a
   * template of {@code resource.k8s.io} itself, or {@code other}.
   *
   * @param request the request
   * @return one of the decision's three resource values
   */
  static String resource(ReviewRequest request) {
    if (!"resource.k8s.io".equals(request.group()) || !request.subResource().isEmpty()) {
      return AdmissionDecision.OTHER_RESOURCE;
    }
    return switch (request.kind()) {
      case "ResourceClaim" -> AdmissionDecision.RESOURCE_CLAIMS;
      case "ResourceClaimTemplate" -> AdmissionDecision.RESOURCE_CLAIM_TEMPLATES;
      default -> AdmissionDecision.OTHER_RESOURCE;
    };
  }

  /**
   * Allows a request.
   *
   * @param request the request
   * @param warnings warnings to show the client; may be empty
   * @return the decision
   */
  public static AdmissionDecision allow(ReviewRequest request, List<String> warnings) {
    ObjectNode response = response(request, true);
    if (!warnings.isEmpty()) {
      ArrayNode list = response.putArray("warnings");
      warnings.forEach(list::add);
    }
    return new AdmissionDecision(request.uid(), true, List.of(), warnings, write(response),
        resource(request));
  }

  /**
   * Denies a request for its configuration problems.
   *
   * @param request the request
   * @param driverName the driver whose configurations are invalid
   * @param problems not empty
   * @return the decision
   */
  public static AdmissionDecision deny(ReviewRequest request, String driverName,
      List<ConfigProblem> problems) {
    ObjectNode response = response(request, false);
    ObjectNode status = response.putObject("status");
    status.putObject("metadata");
    status.put("status", "Failure");
    status.put("message", message(request, driverName, problems));
    status.put("reason", "Invalid");
    ObjectNode details = status.putObject("details");
    if (!request.name().isEmpty()) {
      details.put("name", request.name());
    }
    details.put("group", request.group());
    details.put("kind", request.kind());
    ArrayNode causes = details.putArray("causes");
    for (ConfigProblem problem : problems) {
      ObjectNode cause = causes.addObject();
      cause.put("reason", "FieldValueInvalid");
      cause.put("message", bounded(problem.message(), MAX_PROBLEM_CHARS));
      cause.put("field", problem.path());
    }
    status.put("code", 422);
    return new AdmissionDecision(request.uid(), false, problems, List.of(), write(response),
        resource(request));
  }

  private static String message(ReviewRequest request, String driverName,
      List<ConfigProblem> problems) {
    StringBuilder message = new StringBuilder();
    message.append(request.kind());
    String name = request.objectName();
    if (!name.isEmpty()) {
      message.append(' ').append(name);
    }
    message.append(": ").append(problems.size())
        .append(problems.size() == 1 ? " problem" : " problems")
        .append(" in the device configuration of driver ").append(driverName).append(": ");
    for (int i = 0; i < problems.size(); i++) {
      if (i > 0) {
        message.append("; ");
      }
      ConfigProblem problem = problems.get(i);
      message.append(new ConfigProblem(problem.path(),
          bounded(problem.message(), MAX_PROBLEM_CHARS)));
    }
    return bounded(message.toString(), MAX_MESSAGE_CHARS);
  }

  /** The text, or its start and how much of it was cut. */
  static String bounded(String text, int maxChars) {
    if (text.length() <= maxChars) {
      return text;
    }
    return text.substring(0, maxChars) + "... (" + (text.length() - maxChars)
        + " more characters)";
  }

  private static ObjectNode response(ReviewRequest request, boolean allowed) {
    ObjectNode response = MAPPER.createObjectNode();
    response.put("uid", request.uid());
    response.put("allowed", allowed);
    return response;
  }

  private static byte[] write(ObjectNode response) {
    ObjectNode review = MAPPER.createObjectNode();
    review.put("apiVersion", ReviewRequest.API_VERSION);
    review.put("kind", ReviewRequest.KIND);
    review.set("response", response);
    return MAPPER.writeValueAsBytes(review);
  }
}
