package io.github.dra4j.testing.apiserver.internal.catalog;

import io.github.dra4j.resourceapi.ResourceApiRules;
import io.github.dra4j.resourceapi.ServedVersion;
import io.github.dra4j.testing.apiserver.GroupVersionResource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;

/**
 * The resources the in-memory API server announces in discovery, with the field selectors the
 * real API server supports for them (Kubernetes 1.34 to 1.36). The {@code resource.k8s.io} kinds
 * and versions are those Kubernetes 1.36 serves ({@link ResourceApiRules#servedVersions()}):
 *
 * <ul>
 *   <li>every resource: {@code metadata.name}, and {@code metadata.namespace} if namespaced;
 *   <li>{@code resourceslices} (all versions): {@code spec.driver} and {@code spec.nodeName}
 *       (an unset node name reads as {@code ""}, so {@code spec.nodeName=} selects slices without
 *       one); {@code spec.pool.name} is <em>not</em> selectable on a real server and is rejected;
 *   <li>{@code pods}: {@code spec.nodeName}, {@code spec.restartPolicy}, {@code
 *       spec.schedulerName}, {@code spec.serviceAccountName}, {@code spec.hostNetwork}, {@code
 *       status.phase}, {@code status.podIP}, {@code status.nominatedNodeName};
 *   <li>{@code events}: {@code involvedObject.kind}, {@code .namespace}, {@code .name}, {@code
 *       .uid}, {@code .apiVersion}, {@code .resourceVersion}, {@code .fieldPath}, {@code reason},
 *       {@code reportingComponent}, {@code source} (the source's component, else the reporting
 *       component) and {@code type}, as {@code kubectl describe} asks for an object's Events;
 *   <li>{@code nodes}: {@code spec.unschedulable}; {@code namespaces}: {@code status.phase};
 *       {@code secrets}: {@code type}.
 * </ul>
 *
 * <p>Resources missing from the catalog still work (stored generically); they support the
 * metadata fields only. Immutable.
 */
public final class ResourceCatalog {

  private static final String RESOURCE_GROUP = "resource.k8s.io";

  private final Map<GroupVersionResource, ResourceInfo> resources;

  private ResourceCatalog(Map<GroupVersionResource, ResourceInfo> resources) {
    // Insertion order is the documented order of all() and discovery (preferred version first).
    this.resources = Collections.unmodifiableMap(new LinkedHashMap<>(resources));
  }

  /**
   * Builds the catalog of the core and {@code resource.k8s.io} resources a DRA driver touches.
   *
   * @return the catalog
   */
  public static ResourceCatalog standard() {
    Map<GroupVersionResource, ResourceInfo> map = new LinkedHashMap<>();
    Map<String, Function<JsonNode, String>> podFields = new LinkedHashMap<>();
    podFields.put("spec.nodeName", o -> text(o, "spec", "nodeName"));
    podFields.put("spec.restartPolicy", o -> text(o, "spec", "restartPolicy"));
    podFields.put("spec.schedulerName", o -> text(o, "spec", "schedulerName"));
    podFields.put("spec.serviceAccountName", o -> text(o, "spec", "serviceAccountName"));
    podFields.put("spec.hostNetwork", o -> bool(o, "spec", "hostNetwork"));
    podFields.put("status.phase", o -> text(o, "status", "phase"));
    podFields.put("status.podIP", o -> text(o, "status", "podIP"));
    podFields.put("status.nominatedNodeName", o -> text(o, "status", "nominatedNodeName"));
    add(map, "", "v1", "pods", "Pod", true, podFields);
    add(map, "", "v1", "nodes", "Node", false,
        Map.of("spec.unschedulable", o -> bool(o, "spec", "unschedulable")));
    add(map, "", "v1", "namespaces", "Namespace", false,
        Map.of("status.phase", o -> text(o, "status", "phase")));
    add(map, "", "v1", "secrets", "Secret", true, Map.of("type", o -> text(o, "type")));
    add(map, "", "v1", "configmaps", "ConfigMap", true, Map.of());
    add(map, "", "v1", "services", "Service", true, Map.of());
    add(map, "", "v1", "serviceaccounts", "ServiceAccount", true, Map.of());
    Map<String, Function<JsonNode, String>> eventFields = new LinkedHashMap<>();
    for (String field : List.of("kind", "namespace", "name", "uid", "apiVersion",
        "resourceVersion", "fieldPath")) {
      eventFields.put("involvedObject." + field, o -> text(o, "involvedObject", field));
    }
    eventFields.put("reason", o -> text(o, "reason"));
    eventFields.put("reportingComponent", o -> text(o, "reportingComponent"));
    eventFields.put("source", o -> text(o, "source", "component").isEmpty()
        ? text(o, "reportingComponent") : text(o, "source", "component"));
    eventFields.put("type", o -> text(o, "type"));
    add(map, "", "v1", "events", "Event", true, eventFields);
    Map<String, Function<JsonNode, String>> sliceFields = new LinkedHashMap<>();
    sliceFields.put("spec.driver", o -> text(o, "spec", "driver"));
    sliceFields.put("spec.nodeName", o -> text(o, "spec", "nodeName"));
    // Every kind and version Kubernetes 1.36 serves, the preferred (newest) version first.
    List<ServedVersion> served = ResourceApiRules.servedVersions();
    for (String version : served.stream().map(ServedVersion::version).distinct()
        .sorted(Comparator.comparingInt(ResourceCatalog::versionRank)).toList()) {
      for (ServedVersion kind : served) {
        if (kind.version().equals(version)) {
          add(map, RESOURCE_GROUP, version, kind.resource(), kind.kind(), kind.namespaced(),
              kind.kind().equals("ResourceSlice") ? sliceFields : Map.of());
        }
      }
    }
    return new ResourceCatalog(map);
  }

  /** Orders versions as the API server prefers them: GA, then beta, then alpha, newest first. */
  private static int versionRank(String version) {
    int stage = version.contains("alpha") ? 2 : version.contains("beta") ? 1 : 0;
    String number = version.replaceAll("^v\\d+(alpha|beta)?", "");
    int minor = number.isEmpty() ? 0 : Integer.parseInt(number);
    return stage * 1000 - minor;
  }

  private static void add(
      Map<GroupVersionResource, ResourceInfo> map,
      String group,
      String version,
      String resource,
      String kind,
      boolean namespaced,
      Map<String, Function<JsonNode, String>> specific) {
    GroupVersionResource gvr = new GroupVersionResource(group, version, resource);
    map.put(gvr, new ResourceInfo(gvr, kind, namespaced, withMetadata(specific, namespaced)));
  }

  private static Map<String, Function<JsonNode, String>> withMetadata(
      Map<String, Function<JsonNode, String>> specific, boolean namespaced) {
    Map<String, Function<JsonNode, String>> fields = new LinkedHashMap<>(specific);
    fields.put("metadata.name", o -> text(o, "metadata", "name"));
    if (namespaced) {
      fields.put("metadata.namespace", o -> text(o, "metadata", "namespace"));
    }
    return fields;
  }

  /**
   * Looks up a resource, falling back to a generic description for unknown ones.
   *
   * @param gvr the resource
   * @param namespacedPath whether the request path named a namespace (decides scope of unknown
   *     resources)
   * @return the description
   */
  public ResourceInfo describe(GroupVersionResource gvr, boolean namespacedPath) {
    ResourceInfo known = resources.get(gvr);
    if (known != null) {
      return known;
    }
    return new ResourceInfo(gvr, null, namespacedPath, withMetadata(Map.of(), true));
  }

  /**
   * Returns the catalog entry of a resource.
   *
   * @param gvr the resource
   * @return the entry, or empty if the resource is not in the catalog
   */
  public Optional<ResourceInfo> find(GroupVersionResource gvr) {
    return Optional.ofNullable(resources.get(gvr));
  }

  /**
   * Lists the catalog entries in a stable order (core first, then by group and version).
   *
   * @return the entries
   */
  public List<ResourceInfo> all() {
    return new ArrayList<>(resources.values());
  }

  private static String text(JsonNode object, String... path) {
    JsonNode node = object;
    for (String step : path) {
      node = node.path(step);
    }
    return node.isString() || node.isNumber() || node.isBoolean() ? node.asString() : "";
  }

  private static String bool(JsonNode object, String... path) {
    String value = text(object, path);
    return value.isEmpty() ? "false" : value;
  }
}
