package io.github.dra4j.resourceapi.internal.conversion;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Converts {@code resource.k8s.io} objects, as JSON, between the versions Kubernetes 1.36 serves
 * ({@link ServedVersions}) and {@code v1}, as {@code pkg/apis/resource/<version>/conversion.go}
 * and the generated conversions do. Inputs are never changed; results are new trees.
 *
 * <p>{@code v1beta2} and {@code v1alpha3} (DeviceTaintRule) have the shape of {@code v1}: only
 * {@code apiVersion} changes. {@code v1beta1} differs in two places:
 *
 * <ul>
 *   <li>ResourceSlice: a device is {@code {name, basic: {...}}}; {@code v1} has the fields of
 *       {@code basic} on the device. From {@code v1}, {@code basic} is always written (an empty
 *       device gets {@code basic: {}}). The pool-level {@code nodeName} and {@code allNodes} are
 *       plain values in {@code v1beta1}: {@code ""} and {@code false} mean unset.
 *   <li>ResourceClaim, ResourceClaimTemplate: a request has {@code deviceClassName, selectors,
 *       allocationMode, count, adminAccess, tolerations, capacity} itself; {@code v1} nests them
 *       in {@code exactly}, created when any of them is set (a non-empty class name or mode, a
 *       non-zero count, or any present selectors, admin access, tolerations or capacity, even
 *       {@code false} or {@code []}). Empty tolerations are not carried over.
 * </ul>
 *
 * <p>The status of a claim, DeviceClass and DeviceTaintRule have the same shape in all versions.
 * There are no round-trip annotations. Lists ({@code ...List}) are converted item by item.
 */
public final class VersionConversion {

  /** The {@code v1} API version. */
  public static final String V1 = ServedVersions.GROUP + "/v1";

  private static final List<String> MAIN_REQUEST_FIELDS = List.of("deviceClassName",
      "selectors", "allocationMode", "count", "adminAccess", "tolerations", "capacity");

  private VersionConversion() {}

  /**
   * Converts an object of any served version to {@code v1}, dropping the fields a {@code v1beta1}
   * object has but its version does not know where they would change the shape.
   *
   * @param object the object ({@code apiVersion} and {@code kind} set)
   * @return a new {@code v1} tree
   * @throws IllegalArgumentException if the version does not serve the kind
   */
  public static ObjectNode toV1(ObjectNode object) {
    return toV1(object, new ArrayList<>());
  }

  /**
   * Converts an object to {@code v1} and reports the unknown fields it dropped on the way, by
   * their path in the sent object (e.g. {@code spec.devices.requests[0].exactly} in a {@code
   * v1beta1} claim), as the server's decoder reports unknown fields.
   *
   * @param object the object ({@code apiVersion} and {@code kind} set)
   * @param unknownFields receives the paths of dropped fields
   * @return a new {@code v1} tree
   * @throws IllegalArgumentException if the version does not serve the kind
   */
  public static ObjectNode toV1(ObjectNode object, List<String> unknownFields) {
    String version = version(object);
    String kind = kind(object);
    check(kind, version);
    ObjectNode copy = object.deepCopy();
    copy.put("apiVersion", V1);
    if ("v1beta1".equals(version)) {
      forEachItem(copy, kind, (item, itemKind, prefix) -> v1beta1ToV1(item, itemKind, prefix,
          unknownFields));
    }
    return copy;
  }

  /**
   * Converts a {@code v1} object to another served version.
   *
   * @param v1Object the {@code v1} object
   * @param apiVersion the target, e.g. {@code resource.k8s.io/v1beta1}
   * @return a new tree
   * @throws IllegalArgumentException if the target version does not serve the kind
   */
  public static ObjectNode fromV1(ObjectNode v1Object, String apiVersion) {
    String kind = kind(v1Object);
    String version = apiVersion.startsWith(ServedVersions.GROUP + "/")
        ? apiVersion.substring(ServedVersions.GROUP.length() + 1) : apiVersion;
    check(kind, version);
    ObjectNode copy = v1Object.deepCopy();
    copy.put("apiVersion", ServedVersions.GROUP + "/" + version);
    if ("v1beta1".equals(version)) {
      forEachItem(copy, kind, (item, itemKind, prefix) -> v1ToV1beta1(item, itemKind));
    }
    return copy;
  }

  private interface ItemConverter {
    void convert(ObjectNode item, String kind, String prefix);
  }

  private static void forEachItem(ObjectNode object, String kind, ItemConverter converter) {
    if (kind.endsWith("List")) {
      JsonNode items = object.path("items");
      String itemKind = kind.substring(0, kind.length() - "List".length());
      for (int i = 0; i < items.size(); i++) {
        if (items.get(i) instanceof ObjectNode item) {
          converter.convert(item, itemKind, "items[" + i + "].");
        }
      }
    } else {
      converter.convert(object, kind, "");
    }
  }

  private static void v1beta1ToV1(ObjectNode object, String kind, String prefix,
      List<String> unknown) {
    switch (kind) {
      case "ResourceSlice" -> sliceToV1(object.path("spec"), prefix + "spec.", unknown);
      case "ResourceClaim" -> requestsToV1(object.path("spec").path("devices"),
          prefix + "spec.devices.", unknown);
      case "ResourceClaimTemplate" -> requestsToV1(object.path("spec").path("spec")
          .path("devices"), prefix + "spec.spec.devices.", unknown);
      default -> {
      }
    }
  }

  private static void v1ToV1beta1(ObjectNode object, String kind) {
    switch (kind) {
      case "ResourceSlice" -> sliceFromV1(object.path("spec"));
      case "ResourceClaim" -> requestsFromV1(object.path("spec").path("devices"));
      case "ResourceClaimTemplate" -> requestsFromV1(object.path("spec").path("spec")
          .path("devices"));
      default -> {
      }
    }
  }

  private static void sliceToV1(JsonNode specNode, String prefix, List<String> unknown) {
    if (!(specNode instanceof ObjectNode spec)) {
      return;
    }
    dropUnsetNodeSelection(spec);
    JsonNode devices = spec.path("devices");
    for (int i = 0; i < devices.size(); i++) {
      if (!(devices.get(i) instanceof ObjectNode device)) {
        continue;
      }
      ObjectNode flat = device.objectNode();
      for (Map.Entry<String, JsonNode> field : device.properties()) {
        if (field.getKey().equals("name")) {
          flat.set("name", field.getValue());
        } else if (field.getKey().equals("basic")) {
          if (field.getValue().isObject()) {
            field.getValue().properties().forEach(e -> flat.set(e.getKey(), e.getValue()));
          }
        } else {
          unknown.add(prefix + "devices[" + i + "]." + field.getKey());
        }
      }
      device.removeAll();
      device.setAll(flat);
    }
  }

  /** v1beta1's plain {@code nodeName: ""} and {@code allNodes: false} mean unset. */
  private static void dropUnsetNodeSelection(ObjectNode spec) {
    if (spec.path("nodeName").isString() && spec.path("nodeName").asString().isEmpty()) {
      spec.remove("nodeName");
    }
    if (spec.path("allNodes").isBoolean() && !spec.path("allNodes").asBoolean()) {
      spec.remove("allNodes");
    }
  }

  private static void sliceFromV1(JsonNode specNode) {
    if (!(specNode instanceof ObjectNode spec)) {
      return;
    }
    dropUnsetNodeSelection(spec);
    JsonNode devices = spec.path("devices");
    for (int i = 0; i < devices.size(); i++) {
      if (!(devices.get(i) instanceof ObjectNode device)) {
        continue;
      }
      JsonNode name = device.remove("name");
      ObjectNode basic = device.deepCopy();
      device.removeAll();
      if (name != null) {
        device.set("name", name);
      }
      device.set("basic", basic);
    }
  }

  private static void requestsToV1(JsonNode devicesNode, String prefix, List<String> unknown) {
    JsonNode requests = devicesNode.path("requests");
    for (int i = 0; i < requests.size(); i++) {
      if (!(requests.get(i) instanceof ObjectNode request)) {
        continue;
      }
      ObjectNode converted = request.objectNode();
      if (request.has("name")) {
        converted.set("name", request.get("name"));
      }
      if (hasMainFields(request)) {
        converted.set("exactly", exactly(request));
      }
      if (request.has("firstAvailable")) {
        converted.set("firstAvailable", request.get("firstAvailable"));
      }
      for (String field : request.propertyNames()) {
        if (!field.equals("name") && !field.equals("firstAvailable")
            && !MAIN_REQUEST_FIELDS.contains(field)) {
          unknown.add(prefix + "requests[" + i + "]." + field);
        }
      }
      request.removeAll();
      request.setAll(converted);
    }
  }

  private static boolean hasMainFields(ObjectNode request) {
    return !request.path("deviceClassName").asString("").isEmpty()
        || present(request, "selectors")
        || !request.path("allocationMode").asString("").isEmpty()
        || request.path("count").asLong(0) != 0
        || present(request, "adminAccess")
        || present(request, "tolerations")
        || present(request, "capacity");
  }

  private static ObjectNode exactly(ObjectNode request) {
    ObjectNode exactly = request.objectNode();
    exactly.put("deviceClassName", request.path("deviceClassName").asString(""));
    copyIfPresent(request, exactly, "selectors");
    if (!request.path("allocationMode").asString("").isEmpty()) {
      exactly.set("allocationMode", request.get("allocationMode"));
    }
    if (request.path("count").asLong(0) != 0) {
      exactly.set("count", request.get("count"));
    }
    copyIfPresent(request, exactly, "adminAccess");
    if (request.path("tolerations").isArray() && !request.path("tolerations").isEmpty()) {
      exactly.set("tolerations", request.get("tolerations"));
    }
    copyIfPresent(request, exactly, "capacity");
    return exactly;
  }

  private static void requestsFromV1(JsonNode devicesNode) {
    JsonNode requests = devicesNode.path("requests");
    for (int i = 0; i < requests.size(); i++) {
      if (!(requests.get(i) instanceof ObjectNode request)) {
        continue;
      }
      JsonNode exactly = request.remove("exactly");
      if (exactly instanceof ObjectNode fields) {
        for (String field : MAIN_REQUEST_FIELDS) {
          copyIfPresent(fields, request, field);
        }
      }
    }
  }

  private static boolean present(ObjectNode node, String field) {
    return node.has(field) && !node.get(field).isNull();
  }

  private static void copyIfPresent(ObjectNode from, ObjectNode to, String field) {
    if (present(from, field)) {
      to.set(field, from.get(field));
    }
  }

  private static String version(ObjectNode object) {
    String apiVersion = object.path("apiVersion").asString("");
    String prefix = ServedVersions.GROUP + "/";
    if (!apiVersion.startsWith(prefix)) {
      throw new IllegalArgumentException("not a " + ServedVersions.GROUP + " object: apiVersion \""
          + apiVersion + "\"");
    }
    return apiVersion.substring(prefix.length());
  }

  private static String kind(ObjectNode object) {
    return object.path("kind").asString("");
  }

  private static void check(String kind, String version) {
    String itemKind = kind.endsWith("List") ? kind.substring(0, kind.length() - 4) : kind;
    if (!ServedVersions.serves(itemKind, version)) {
      throw new IllegalArgumentException("no kind \"" + kind + "\" is registered for version \""
          + ServedVersions.GROUP + "/" + version + "\"");
    }
  }
}
