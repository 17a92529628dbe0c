package io.github.dra4j.testing.node;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceClaimConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClaimConfigurationBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassConfigurationBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An opaque device configuration as a user writes it in a claim ({@code spec.devices.config[]})
 * or a DeviceClass ({@code spec.config[]}), for tests of a driver's configuration handling.
 *
 * <pre>{@code
 * OpaqueConfig config = OpaqueConfig.of("gpu.example.com", "gpu.example.com/v1alpha1",
 *     "GpuConfig", "{\"sharing\": \"TimeSlicing\"}", "gpu");
 * ResourceClaim claim = node.createClaim("default", "c", "gpu", "gpu", 1, config);
 * }</pre>
 *
 * @param driver the driver the configuration is for ({@code opaque.driver})
 * @param parameters the {@code opaque.parameters} object, as fabric8 holds it after reading JSON
 * @param requests the requests it applies to; empty for all. A DeviceClass entry has none
 */
public record OpaqueConfig(String driver, Map<String, Object> parameters,
    List<String> requests) {

  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  /**
   * Checks and copies.
   *
   * @param driver not null
   * @param parameters not null; copied
   * @param requests not null; copied
   */
  public OpaqueConfig {
    Objects.requireNonNull(driver, "driver");
    parameters = Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
    requests = List.copyOf(requests);
  }

  /**
   * A configuration of a type, given its fields as JSON.
   *
   * @param driver the driver
   * @param apiVersion the type's {@code apiVersion}, such as {@code gpu.example.com/v1alpha1}
   * @param kind the type's {@code kind}
   * @param fields the type's fields as a JSON object, without {@code apiVersion} and {@code kind};
   *     {@code {}} for none
   * @param requests the requests it applies to; none for all
   * @return the configuration
   * @throws IllegalArgumentException if {@code fields} is not a JSON object, quoting it
   */
  public static OpaqueConfig of(String driver, String apiVersion, String kind, String fields,
      String... requests) {
    Map<String, Object> parameters = new LinkedHashMap<>();
    parameters.put("apiVersion", apiVersion);
    parameters.put("kind", kind);
    parameters.putAll(object(fields));
    return new OpaqueConfig(driver, parameters, List.of(requests));
  }

  /**
   * A configuration given its whole {@code parameters} object as JSON, for parameters a driver
   * must refuse (no {@code kind}, a field of the wrong type).
   *
   * @param driver the driver
   * @param parameters the parameters as a JSON object
   * @param requests the requests it applies to; none for all
   * @return the configuration
   * @throws IllegalArgumentException if {@code parameters} is not a JSON object, quoting it
   */
  public static OpaqueConfig parse(String driver, String parameters, String... requests) {
    return new OpaqueConfig(driver, object(parameters), List.of(requests));
  }

  /**
   * This configuration as a claim's entry.
   *
   * @return the entry of {@code spec.devices.config[]}
   */
  public DeviceClaimConfiguration toClaimConfig() {
    return new DeviceClaimConfigurationBuilder().withRequests(requests).withNewOpaque()
        .withDriver(driver).withParameters(new LinkedHashMap<>(parameters)).endOpaque().build();
  }

  /**
   * This configuration as a DeviceClass's entry.
   *
   * @return the entry of {@code spec.config[]}
   * @throws IllegalStateException if it names requests, which a class entry cannot
   */
  public DeviceClassConfiguration toClassConfig() {
    if (!requests.isEmpty()) {
      throw new IllegalStateException("a DeviceClass configuration applies to every request of"
          + " the class; this one names requests " + requests);
    }
    return new DeviceClassConfigurationBuilder().withNewOpaque().withDriver(driver)
        .withParameters(new LinkedHashMap<>(parameters)).endOpaque().build();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> object(String json) {
    Object value;
    try {
      value = JSON.unmarshal(json, Object.class);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("not JSON: " + json, e);
    }
    if (!(value instanceof Map<?, ?>)) {
      throw new IllegalArgumentException("want a JSON object, got " + json);
    }
    return (Map<String, Object>) value;
  }
}
