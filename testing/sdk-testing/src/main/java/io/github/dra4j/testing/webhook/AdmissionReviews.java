package io.github.dra4j.testing.webhook;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * Builds {@code admission.k8s.io/v1} AdmissionReview requests as the API server sends them to a
 * validating webhook for a ResourceClaim or ResourceClaimTemplate: {@code request.kind} and
 * {@code request.resource} from the object's {@code apiVersion} and kind, its namespace and name,
 * the operation, a fresh UID, the object (and the old object for an UPDATE). Stateless.
 */
public final class AdmissionReviews {

  private static final KubernetesSerialization JSON = new KubernetesSerialization();
  private static final String DEFAULT_API_VERSION = "resource.k8s.io/v1";

  private AdmissionReviews() {}

  /**
   * The review of creating an object.
   *
   * @param object a ResourceClaim or ResourceClaimTemplate
   * @return the AdmissionReview as UTF-8 JSON
   * @throws IllegalArgumentException for another kind, naming it
   */
  public static byte[] create(HasMetadata object) {
    return review("CREATE", object, null);
  }

  /**
   * The review of updating an object.
   *
   * @param oldObject the object as stored
   * @param object the object as the client sent it
   * @return the AdmissionReview as UTF-8 JSON
   * @throws IllegalArgumentException for another kind, naming it
   */
  public static byte[] update(HasMetadata oldObject, HasMetadata object) {
    return review("UPDATE", object, Objects.requireNonNull(oldObject, "oldObject"));
  }

  /**
   * A review of any operation.
   *
   * @param operation {@code CREATE}, {@code UPDATE}, {@code DELETE} or {@code CONNECT}
   * @param object the object (for DELETE, the object being deleted; it is sent as the old one)
   * @param oldObject the stored object for UPDATE, or null
   * @return the AdmissionReview as UTF-8 JSON
   * @throws IllegalArgumentException if the object is not a ResourceClaim or
   *     ResourceClaimTemplate, naming its kind
   */
  public static byte[] review(String operation, HasMetadata object, HasMetadata oldObject) {
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(object, "object");
    String kind = object.getKind();
    String resource;
    if ("ResourceClaim".equals(kind)) {
      resource = "resourceclaims";
    } else if ("ResourceClaimTemplate".equals(kind)) {
      resource = "resourceclaimtemplates";
    } else {
      throw new IllegalArgumentException("kind " + kind + " of " + object.getClass().getName()
          + " is not ResourceClaim or ResourceClaimTemplate");
    }
    String apiVersion = object.getApiVersion() == null || object.getApiVersion().isEmpty()
        ? DEFAULT_API_VERSION : object.getApiVersion();
    int slash = apiVersion.indexOf('/');
    String group = slash < 0 ? "" : apiVersion.substring(0, slash);
    String version = apiVersion.substring(slash + 1);
    Map<String, Object> request = new LinkedHashMap<>();
    request.put("uid", UUID.randomUUID().toString());
    request.put("kind", Map.of("group", group, "version", version, "kind", kind));
    request.put("resource", Map.of("group", group, "version", version, "resource", resource));
    request.put("requestKind", request.get("kind"));
    request.put("requestResource", request.get("resource"));
    if (object.getMetadata() != null) {
      if (object.getMetadata().getName() != null) {
        request.put("name", object.getMetadata().getName());
      }
      if (object.getMetadata().getNamespace() != null) {
        request.put("namespace", object.getMetadata().getNamespace());
      }
    }
    request.put("operation", operation);
    request.put("userInfo", Map.of("username", "test-user"));
    if (operation.equals("DELETE")) {
      request.put("oldObject", object);
    } else {
      request.put("object", object);
      if (oldObject != null) {
        request.put("oldObject", oldObject);
      }
    }
    request.put("dryRun", false);
    Map<String, Object> review = new LinkedHashMap<>();
    review.put("apiVersion", "admission.k8s.io/v1");
    review.put("kind", "AdmissionReview");
    review.put("request", request);
    return JSON.asJson(review).getBytes(StandardCharsets.UTF_8);
  }
}
