package io.github.dra4j.resourceapi.internal.claim;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Builds test objects from relaxed JSON: names may go unquoted and strings in single quotes, e.g.
 * {@code {name:'gpu',exactly:{deviceClassName:'gpu.example.com'}}}.
 */
public final class Fixtures {

  /** A valid exact request named {@code gpu}. */
  public static final String GPU_REQUEST = "{name:'gpu',exactly:{deviceClassName:'gpu.example.com',allocationMode:'ExactCount',"
      + "count:1}}";

  /** A valid sub-request template; {@code %s} is its name. */
  public static final String SUB_REQUEST = "{name:'%s',deviceClassName:'gpu.example.com',allocationMode:'ExactCount',count:1}";

  /** A valid opaque configuration body (without {@code requests}). */
  public static final String OPAQUE = "opaque:{driver:'dra.example.com',parameters:{kind:'foo',apiVersion:'dra.example.com/v1'}}";

  private static final JsonMapper JSON = JsonMapper.builder()
      .enable(JsonReadFeature.ALLOW_SINGLE_QUOTES)
      .enable(JsonReadFeature.ALLOW_UNQUOTED_PROPERTY_NAMES)
      .build();

  private Fixtures() {}

  /**
   * Reads relaxed JSON.
   *
   * @param json the text
   * @param type the class
   * @param <T> the type
   * @return the object
   */
  public static <T> T read(String json, Class<T> type) {
    return JSON.readValue(json, type);
  }

  /**
   * Reads a claim's devices.
   *
   * @param json {@code spec.devices}
   * @return the devices
   */
  public static DeviceClaim devices(String json) {
    return read(json, DeviceClaim.class);
  }

  /**
   * Builds a claim named {@code foo} in namespace {@code ns}.
   *
   * @param devicesJson {@code spec.devices}
   * @return the claim
   */
  public static ResourceClaim claim(String devicesJson) {
    return read("{apiVersion:'resource.k8s.io/v1',kind:'ResourceClaim',"
        + "metadata:{name:'foo',namespace:'ns'},spec:{devices:" + devicesJson + "}}",
        ResourceClaim.class);
  }

  /**
   * Builds a claim template named {@code foo} in namespace {@code ns}.
   *
   * @param devicesJson {@code spec.spec.devices}
   * @return the template
   */
  public static ResourceClaimTemplate template(String devicesJson) {
    return read("{apiVersion:'resource.k8s.io/v1',kind:'ResourceClaimTemplate',"
        + "metadata:{name:'foo',namespace:'ns'},spec:{spec:{devices:" + devicesJson + "}}}",
        ResourceClaimTemplate.class);
  }

  /**
   * Joins {@code count} generated items with commas.
   *
   * @param count how many
   * @param item the i-th item
   * @return {@code a,b,c}
   */
  public static String repeat(int count, IntFunction<String> item) {
    return IntStream.range(0, count).mapToObj(item).collect(Collectors.joining(","));
  }

  /**
   * Wraps requests, and optionally more fields, into {@code spec.devices}.
   *
   * @param requests the requests' JSON, comma-separated
   * @param more further fields of {@code devices}, e.g. {@code constraints:[...]}, or empty
   * @return the devices' JSON
   */
  public static String devicesJson(String requests, String more) {
    return "{requests:[" + requests + "]" + (more.isEmpty() ? "" : "," + more) + "}";
  }
}
