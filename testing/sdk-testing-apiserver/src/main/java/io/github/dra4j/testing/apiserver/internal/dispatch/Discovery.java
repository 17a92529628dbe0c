package io.github.dra4j.testing.apiserver.internal.dispatch;

import io.fabric8.mockwebserver.http.MockResponse;
import io.github.dra4j.testing.apiserver.internal.catalog.ResourceCatalog;
import io.github.dra4j.testing.apiserver.internal.catalog.ResourceInfo;
import io.github.dra4j.testing.apiserver.internal.schema.OpenApiDocuments;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Answers the non-resource paths a client or {@code kubectl} asks first: {@code /}, {@code
 * /version}, health checks and the discovery documents ({@code /api}, {@code /apis}, {@code
 * /apis/<group>}, {@code /api/v1}, {@code /apis/<group>/<version>}) built from the resource
 * catalog, and the OpenAPI v3 documents, leaving out disabled group-versions. Every answer is JSON
 * except the health checks' {@code text/plain}. Immutable apart from reading the live
 * {@link ServerBehaviour}.
 */
public final class Discovery {

  private static final List<String> VERBS = List.of("create", "delete", "deletecollection", "get",
      "list", "patch", "update", "watch");

  private final JsonMapper mapper;
  private final ResourceCatalog catalog;
  private final ServerBehaviour behaviour;
  private final String gitVersion;
  private final OpenApiDocuments openApi;

  /**
   * Creates the discovery responder.
   *
   * @param mapper JSON mapper
   * @param catalog the served resources
   * @param behaviour which group-versions are disabled
   * @param gitVersion the version reported by {@code /version}, e.g. {@code v1.34.0}
   * @param openApi the OpenAPI documents
   */
  public Discovery(
      JsonMapper mapper,
      ResourceCatalog catalog,
      ServerBehaviour behaviour,
      String gitVersion,
      OpenApiDocuments openApi) {
    this.mapper = mapper;
    this.catalog = catalog;
    this.behaviour = behaviour;
    this.gitVersion = gitVersion;
    this.openApi = openApi;
  }

  /**
   * Answers a non-resource request.
   *
   * @param target the parsed request
   * @return the response
   * @throws ApiError 404 for unknown or disabled paths
   */
  public MockResponse answer(RequestTarget target) {
    return switch (target.kind()) {
      case ROOT -> json(rootPaths());
      case VERSION -> json(version());
      case HEALTH -> new MockResponse()
          .setResponseCode(200)
          .setHeader("Content-Type", "text/plain; charset=utf-8")
          .setBody("ok");
      case DISCOVERY -> json(discovery(target));
      case OPENAPI -> openApi(target);
      default -> throw ApiError.pathNotFound();
    };
  }

  private MockResponse openApi(RequestTarget target) {
    String group = target.discoveryGroup();
    if (group == null) {
      return json(openApi.index(gv -> !behaviour.isDisabled(gv)));
    }
    String version = target.discoveryVersion();
    if (behaviour.isDisabled(group.isEmpty() ? version : group + "/" + version)) {
      throw ApiError.pathNotFound();
    }
    return json(openApi.document(group, version).orElseThrow(ApiError::pathNotFound));
  }

  private ObjectNode rootPaths() {
    ObjectNode root = mapper.createObjectNode();
    ArrayNode paths = root.putArray("paths");
    paths.add("/api").add("/api/v1").add("/apis");
    groups().forEach((group, versions) -> {
      paths.add("/apis/" + group);
      versions.forEach(v -> paths.add("/apis/" + group + "/" + v));
    });
    paths.add("/healthz").add("/livez").add("/openapi/v3").add("/readyz").add("/version");
    return root;
  }

  private ObjectNode version() {
    String[] parts = gitVersion.replaceFirst("^v", "").split("\\.", -1);
    ObjectNode node = mapper.createObjectNode();
    node.put("major", parts[0]).put("minor", parts.length > 1 ? parts[1] : "0");
    node.put("gitVersion", gitVersion).put("gitCommit", "dra4j-in-memory");
    node.put("gitTreeState", "clean").put("buildDate", "1970-01-01T00:00:00Z");
    node.put("goVersion", "none").put("compiler", "none");
    node.put("platform", System.getProperty("os.name", "linux").toLowerCase(Locale.ROOT) + "/"
        + System.getProperty("os.arch", "amd64"));
    return node;
  }

  private ObjectNode discovery(RequestTarget target) {
    String group = target.discoveryGroup();
    String version = target.discoveryVersion();
    if (group == null) {
      return groupList();
    }
    if (group.isEmpty() && version == null) {
      ObjectNode versions = mapper.createObjectNode();
      versions.put("kind", "APIVersions");
      versions.putArray("versions").add("v1");
      return versions;
    }
    if (version == null) {
      List<String> versions = groups().get(group);
      if (versions == null) {
        throw ApiError.pathNotFound();
      }
      ObjectNode node = groupNode(group, versions);
      node.put("kind", "APIGroup").put("apiVersion", "v1");
      return node;
    }
    String groupVersion = group.isEmpty() ? version : group + "/" + version;
    List<ResourceInfo> resources = new ArrayList<>();
    for (ResourceInfo info : catalog.all()) {
      if (info.gvr().group().equals(group) && info.gvr().version().equals(version)) {
        resources.add(info);
      }
    }
    if (resources.isEmpty() || behaviour.isDisabled(groupVersion)) {
      throw ApiError.pathNotFound();
    }
    ObjectNode list = mapper.createObjectNode();
    list.put("kind", "APIResourceList").put("apiVersion", "v1").put("groupVersion", groupVersion);
    ArrayNode array = list.putArray("resources");
    for (ResourceInfo info : resources) {
      ObjectNode resource = array.addObject();
      resource.put("name", info.gvr().resource());
      resource.put("singularName", info.kind().toLowerCase(Locale.ROOT));
      resource.put("namespaced", info.namespaced());
      resource.put("kind", info.kind());
      ArrayNode verbs = resource.putArray("verbs");
      VERBS.forEach(verbs::add);
    }
    return list;
  }

  private ObjectNode groupList() {
    ObjectNode list = mapper.createObjectNode();
    list.put("kind", "APIGroupList").put("apiVersion", "v1");
    ArrayNode array = list.putArray("groups");
    groups().forEach((group, versions) -> array.add(groupNode(group, versions)));
    return list;
  }

  private ObjectNode groupNode(String group, List<String> versions) {
    ObjectNode node = mapper.createObjectNode();
    node.put("name", group);
    ArrayNode array = node.putArray("versions");
    for (String version : versions) {
      array.addObject().put("groupVersion", group + "/" + version).put("version", version);
    }
    node.putObject("preferredVersion")
        .put("groupVersion", group + "/" + versions.get(0))
        .put("version", versions.get(0));
    return node;
  }

  /** Named groups with their enabled versions, preferred (first listed in the catalog) first. */
  private Map<String, List<String>> groups() {
    Map<String, List<String>> groups = new LinkedHashMap<>();
    for (ResourceInfo info : catalog.all()) {
      String group = info.gvr().group();
      if (group.isEmpty() || behaviour.isDisabled(info.gvr().groupVersion())) {
        continue;
      }
      List<String> versions = groups.computeIfAbsent(group, g -> new ArrayList<>());
      if (!versions.contains(info.gvr().version())) {
        versions.add(info.gvr().version());
      }
    }
    return groups;
  }

  private MockResponse json(ObjectNode body) {
    return json(mapper.writeValueAsString(body));
  }

  private static MockResponse json(String body) {
    return new MockResponse()
        .setResponseCode(200)
        .setHeader("Content-Type", AcceptHeader.JSON)
        .setBody(body);
  }
}
