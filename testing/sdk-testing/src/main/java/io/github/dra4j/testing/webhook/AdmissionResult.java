package io.github.dra4j.testing.webhook;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a webhook answered to an AdmissionReview, read from its {@code admission.k8s.io/v1}
 * response body: what the API server would act on and what a user would see.
 *
 * @param uid the request UID the response echoes
 * @param allowed whether the object is admitted
 * @param code the status code of a denial (422 for invalid configuration), 0 if none is given
 * @param message the denial's message, as {@code kubectl} prints it; empty when allowed
 * @param fields the fields the denial's causes name, in order, such as {@code
 *     spec.devices.config[0].opaque.parameters.sharing.strategy}
 * @param warnings the warnings {@code kubectl} prints
 */
public record AdmissionResult(String uid, boolean allowed, int code, String message,
    List<String> fields, List<String> warnings) {

  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  /**
   * Copies the lists.
   *
   * @param uid the request UID
   * @param allowed whether the object is admitted
   * @param code the denial's status code, 0 if none
   * @param message the denial's message, empty if none
   * @param fields the fields the causes name
   * @param warnings the warnings
   */
  public AdmissionResult {
    fields = List.copyOf(fields);
    warnings = List.copyOf(warnings);
  }

  /**
   * Reads a response body.
   *
   * @param body an {@code admission.k8s.io/v1} AdmissionReview with a {@code response}, as UTF-8
   *     JSON
   * @return the result
   * @throws IllegalArgumentException if the body is no AdmissionReview with a response, quoting
   *     the start of the body
   */
  public static AdmissionResult read(byte[] body) {
    String text = new String(body, StandardCharsets.UTF_8);
    Map<?, ?> review;
    try {
      review = JSON.unmarshal(text, Map.class);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("not JSON: " + start(text), e);
    }
    if (review == null || !"AdmissionReview".equals(review.get("kind"))
        || !(review.get("response") instanceof Map<?, ?> response)) {
      throw new IllegalArgumentException("not an AdmissionReview with a response: "
          + start(text));
    }
    Map<?, ?> status = response.get("status") instanceof Map<?, ?> s ? s : Map.of();
    Map<?, ?> details = status.get("details") instanceof Map<?, ?> d ? d : Map.of();
    List<String> fields = new ArrayList<>();
    if (details.get("causes") instanceof List<?> causes) {
      for (Object cause : causes) {
        if (cause instanceof Map<?, ?> c && c.get("field") != null) {
          fields.add(String.valueOf(c.get("field")));
        }
      }
    }
    List<String> warnings = new ArrayList<>();
    if (response.get("warnings") instanceof List<?> list) {
      list.forEach(w -> warnings.add(String.valueOf(w)));
    }
    return new AdmissionResult(String.valueOf(response.get("uid")),
        Boolean.TRUE.equals(response.get("allowed")),
        status.get("code") instanceof Number n ? n.intValue() : 0,
        status.get("message") == null ? "" : String.valueOf(status.get("message")),
        fields, warnings);
  }

  private static String start(String text) {
    return text.length() <= 200 ? text : text.substring(0, 200) + "...";
  }
}
