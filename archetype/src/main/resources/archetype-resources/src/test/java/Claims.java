package ${package};

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import ${package}.config.DriverConfigs;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Claims as users write them, and the AdmissionReview the API server sends the webhook. */
public final class Claims {

  private Claims() {}

  /**
   * A claim for one device of a class, with a {@code DriverConfig} for its request.
   *
   * @param name the claim's name, in namespace {@code default}
   * @param deviceClass the DeviceClass
   * @param driverName the driver the configuration is for
   * @param parameters the configuration's fields as JSON, without apiVersion and kind
   * @return the claim, not yet stored
   */
  public static ResourceClaim withConfig(String name, String deviceClass, String driverName,
      String parameters) {
    Map<String, Object> opaque = new LinkedHashMap<>();
    opaque.put("apiVersion", DriverConfigs.API_VERSION);
    opaque.put("kind", DriverConfigs.KIND);
    Map<?, ?> fields = Serialization.unmarshal(parameters, Map.class);
    fields.forEach((key, value) -> opaque.put((String) key, value));
    return new ResourceClaimBuilder()
        .withNewMetadata().withNamespace("default").withName(name).endMetadata()
        .withNewSpec().withNewDevices().addNewRequest().withName("dev").withNewExactly()
        .withDeviceClassName(deviceClass).endExactly().endRequest()
        .addNewConfig().withRequests("dev").withNewOpaque().withDriver(driverName)
        .withParameters(opaque).endOpaque().endConfig().endDevices().endSpec()
        .build();
  }

  /**
   * The AdmissionReview the API server sends the webhook when a claim is created.
   *
   * @param claim the claim
   * @return the review as JSON
   */
  public static byte[] admissionReview(ResourceClaim claim) {
    Map<String, Object> request = new LinkedHashMap<>();
    request.put("uid", "review-1");
    request.put("kind", Map.of("group", "resource.k8s.io", "version", "v1",
        "kind", "ResourceClaim"));
    request.put("resource", Map.of("group", "resource.k8s.io", "version", "v1",
        "resource", "resourceclaims"));
    request.put("operation", "CREATE");
    request.put("namespace", claim.getMetadata().getNamespace());
    request.put("object", claim);
    Map<String, Object> review = new LinkedHashMap<>();
    review.put("apiVersion", "admission.k8s.io/v1");
    review.put("kind", "AdmissionReview");
    review.put("request", request);
    return Serialization.asJson(review).getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The devices allocated to a claim.
   *
   * @param claim an allocated claim
   * @return the devices' names, in the allocation's order
   */
  public static List<String> allocatedDevices(ResourceClaim claim) {
    return claim.getStatus().getAllocation().getDevices().getResults().stream()
        .map(result -> result.getDevice()).toList();
  }

  /**
   * A claim's UID.
   *
   * @param claim a stored claim
   * @return its UID
   */
  public static String uid(ResourceClaim claim) {
    return claim.getMetadata().getUid();
  }
}
