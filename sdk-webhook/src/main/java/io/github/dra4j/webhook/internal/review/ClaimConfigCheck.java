package io.github.dra4j.webhook.internal.review;

import io.github.dra4j.resourceclaim.RequestReference;
import io.github.dra4j.resourceclaim.config.ConfigException;
import io.github.dra4j.resourceclaim.config.ConfigProblem;
import io.github.dra4j.resourceclaim.config.ConfigScheme;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * Checks the device configurations of one ResourceClaim or ResourceClaimTemplate, given as the
 * JSON tree the API server sent, against a driver's {@link ConfigScheme}.
 *
 * <p>The configurations are at {@code spec.devices.config[]} in a claim and at {@code
 * spec.spec.devices.config[]} in a template, with the same shape in {@code resource.k8s.io} v1,
 * v1beta2 and v1beta1: {@code requests} (names of requests or {@code request/subrequest}) and an
 * {@code opaque} part with {@code driver} and {@code parameters}. Entries of other drivers and
 * entries without an {@code opaque} part are left alone: they name no driver, and the driver
 * they are for checks them when it prepares the claim. Every entry of this driver is decoded with
 * the scheme, exactly as the kubelet plugin decodes it after allocation, and every problem of
 * every entry is returned, each with its full path. Stateless and thread-safe.
 */
public final class ClaimConfigCheck {

  private final String driverName;
  private final ConfigScheme<?> scheme;

  /**
   * A check for one driver.
   *
   * @param driverName the driver whose entries are checked
   * @param scheme the driver's configuration types
   */
  public ClaimConfigCheck(String driverName, ConfigScheme<?> scheme) {
    this.driverName = driverName;
    this.scheme = scheme;
  }

  /**
   * Checks an object's configurations.
   *
   * @param object the ResourceClaim or ResourceClaimTemplate as JSON
   * @param template whether the object is a template, whose claim spec is at {@code spec.spec}
   * @return every problem found, with paths from the object's root; empty when all is well
   */
  public List<ConfigProblem> check(JsonNode object, boolean template) {
    List<ConfigProblem> problems = new ArrayList<>();
    String specPath = template ? "spec.spec" : "spec";
    JsonNode spec = template ? object.path("spec").path("spec") : object.path("spec");
    JsonNode configs = spec.path("devices").path("config");
    String path = specPath + ".devices.config";
    if (configs.isMissingNode() || configs.isNull()) {
      return problems;
    }
    if (!configs.isArray()) {
      problems.add(new ConfigProblem(path, "want a list, got a " + configs.getNodeType()));
      return problems;
    }
    for (int i = 0; i < configs.size(); i++) {
      checkEntry(configs.get(i), path + "[" + i + "]", problems);
    }
    return problems;
  }

  private void checkEntry(JsonNode entry, String path, List<ConfigProblem> problems) {
    if (!entry.isObject()) {
      problems.add(new ConfigProblem(path, "want an object, got a " + entry.getNodeType()));
      return;
    }
    JsonNode opaque = entry.path("opaque");
    if (!opaque.isObject() || !driverName.equals(stringOrNull(opaque.path("driver")))) {
      return;
    }
    JsonNode requests = entry.path("requests");
    if (requests.isArray()) {
      for (int j = 0; j < requests.size(); j++) {
        JsonNode name = requests.get(j);
        String where = path + ".requests[" + j + "]";
        if (!name.isString()) {
          problems.add(new ConfigProblem(where, "want a string, got a " + name.getNodeType()));
          continue;
        }
        try {
          RequestReference.parse(name.asString());
        } catch (IllegalArgumentException e) {
          problems.add(new ConfigProblem(where, e.getMessage()));
        }
      }
    } else if (!requests.isMissingNode() && !requests.isNull()) {
      problems.add(new ConfigProblem(path + ".requests",
          "want a list, got a " + requests.getNodeType()));
    }
    JsonNode parameters = opaque.path("parameters");
    try {
      scheme.decodeParameters(parameters.isMissingNode() || parameters.isNull()
          ? null : parameters);
    } catch (ConfigException e) {
      problems.addAll(e.under(path + ".opaque").problems());
    } catch (RuntimeException e) {
      // A bug in a configuration type's own hooks: the plugin would fail the claim the same way,
      // so the object is refused, and the server answers instead of failing.
      problems.add(new ConfigProblem(path + ".opaque.parameters",
          "the driver's configuration check failed: " + e));
    }
  }

  private static String stringOrNull(JsonNode node) {
    return node.isString() ? node.asString() : null;
  }
}
