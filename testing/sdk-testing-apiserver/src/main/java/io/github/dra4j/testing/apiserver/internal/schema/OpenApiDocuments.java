package io.github.dra4j.testing.apiserver.internal.schema;

import io.github.dra4j.testing.apiserver.GroupVersionResource;
import io.github.dra4j.testing.apiserver.internal.catalog.ResourceCatalog;
import io.github.dra4j.testing.apiserver.internal.catalog.ResourceInfo;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The OpenAPI v3 documents of the in-memory API server: the index at {@code /openapi/v3} and one
 * document per group-version ({@code /openapi/v3/api/v1}, {@code
 * /openapi/v3/apis/resource.k8s.io/v1}), with the paths and operations of the served resources
 * and schemas read from the fabric8 model classes.
 *
 * <p>{@code kubectl} 1.35 reads them before it creates, replaces or applies an object: it looks for
 * the PATCH operation of the object's kind and, finding the {@code fieldValidation} parameter
 * there, leaves validation to the server and sends {@code fieldValidation=Strict}; the server then
 * rejects unknown fields (see {@link UnknownFields}). Without these documents kubectl falls back
 * to {@code /openapi/v2} in protobuf and gives up unless told {@code --validate=false}. Writes
 * and deletes list {@code dryRun}, which the server honours.
 *
 * <p>Thread-safe: documents are built once per group-version and kept as immutable strings.
 */
public final class OpenApiDocuments {

  private static final List<String> LIST_PARAMETERS = List.of(
      "allowWatchBookmarks", "continue", "fieldSelector", "labelSelector", "limit",
      "resourceVersion", "resourceVersionMatch", "sendInitialEvents", "timeoutSeconds", "watch");
  private static final List<String> WRITE_PARAMETERS = List.of("dryRun", "fieldManager",
      "fieldValidation");
  private static final List<String> DELETE_PARAMETERS = List.of("dryRun", "gracePeriodSeconds",
      "propagationPolicy");
  private static final List<String> PATCH_TYPES = List.of(
      "application/json-patch+json", "application/merge-patch+json",
      "application/strategic-merge-patch+json");

  private final JsonMapper mapper;
  private final ResourceCatalog catalog;
  private final ModelTypes types;
  private final String gitVersion;
  private final Map<String, String> documents = new ConcurrentHashMap<>();

  /**
   * Creates the documents.
   *
   * @param mapper JSON mapper
   * @param catalog the served resources
   * @param types the model lookup
   * @param gitVersion the server version, e.g. {@code v1.34.0}, written as the documents' version
   */
  public OpenApiDocuments(
      JsonMapper mapper, ResourceCatalog catalog, ModelTypes types, String gitVersion) {
    this.mapper = mapper;
    this.catalog = catalog;
    this.types = types;
    this.gitVersion = gitVersion;
  }

  /**
   * Builds the index: for each served group-version its document's URL, with a hash of the
   * content that changes when the document does.
   *
   * @param served whether a group-version (e.g. {@code resource.k8s.io/v1}, {@code v1}) is served
   * @return {@code {"paths": {"api/v1": {"serverRelativeURL": "/openapi/v3/api/v1?hash=..."}}}}
   */
  public ObjectNode index(Predicate<String> served) {
    ObjectNode root = mapper.createObjectNode();
    ObjectNode paths = root.putObject("paths");
    for (GroupVersion gv : groupVersions()) {
      if (served.test(gv.group().isEmpty() ? gv.version() : gv.group() + "/" + gv.version())) {
        String path = pathOf(gv.group(), gv.version());
        String hash = sha256(document(gv.group(), gv.version()).orElseThrow());
        paths.putObject(path).put("serverRelativeURL", "/openapi/v3/" + path + "?hash=" + hash);
      }
    }
    return root;
  }

  /**
   * Returns the document of one group-version.
   *
   * @param group the group, {@code ""} for core
   * @param version the version
   * @return the JSON document, or empty if no resource of the catalog has this group-version
   */
  public Optional<String> document(String group, String version) {
    boolean known = groupVersions().stream()
        .anyMatch(gv -> gv.group().equals(group) && gv.version().equals(version));
    if (!known) {
      return Optional.empty();
    }
    return Optional.of(documents.computeIfAbsent(
        group + "/" + version, k -> mapper.writeValueAsString(build(group, version))));
  }

  /** A group and version of the catalog. */
  private record GroupVersion(String group, String version) {}

  /** The catalog's group-versions in catalog order. */
  private List<GroupVersion> groupVersions() {
    Set<GroupVersion> result = new LinkedHashSet<>();
    for (ResourceInfo info : catalog.all()) {
      result.add(new GroupVersion(info.gvr().group(), info.gvr().version()));
    }
    return new ArrayList<>(result);
  }

  private ObjectNode build(String group, String version) {
    ObjectNode document = mapper.createObjectNode();
    document.put("openapi", "3.0.0");
    document.putObject("info").put("title", "Kubernetes").put("version", gitVersion);
    ObjectNode paths = document.putObject("paths");
    ObjectNode schemas = document.putObject("components").putObject("schemas");
    ComponentSchemas components = new ComponentSchemas(types, schemas);
    String apiVersion = group.isEmpty() ? version : group + "/" + version;
    for (ResourceInfo info : catalog.all()) {
      GroupVersionResource gvr = info.gvr();
      if (!gvr.group().equals(group) || !gvr.version().equals(version) || info.kind() == null) {
        continue;
      }
      Optional<Class<?>> kindClass = types.kindClass(apiVersion, info.kind());
      String reference = kindClass
          .map(c -> components.addKind(c, group, version, info.kind()))
          .orElseGet(() -> opaqueKind(schemas, group, version, info.kind()));
      boolean hasStatus = types.hasStatus(apiVersion, info.kind()).orElse(false);
      new ResourcePaths(info, reference, hasStatus).addTo(paths);
    }
    return document;
  }

  private static String opaqueKind(ObjectNode schemas, String group, String version, String kind) {
    String name = "io.k8s.api." + (group.isEmpty() ? "core" : group) + "." + version + "." + kind;
    ObjectNode schema = schemas.putObject(name);
    schema.put("type", "object").put("x-kubernetes-preserve-unknown-fields", true);
    schema.putArray("x-kubernetes-group-version-kind").addObject()
        .put("group", group).put("kind", kind).put("version", version);
    return "#/components/schemas/" + name;
  }

  private static String pathOf(String group, String version) {
    return group.isEmpty() ? "api/" + version : "apis/" + group + "/" + version;
  }

  private static String sha256(String text) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().withUpperCase().formatHex(
          digest.digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JDK", e);
    }
  }

  /** The paths of one resource: collection, object and (if the kind has one) status. */
  private final class ResourcePaths {

    private final ResourceInfo info;
    private final String reference;
    private final boolean hasStatus;
    private final String operationSuffix;

    ResourcePaths(ResourceInfo info, String reference, boolean hasStatus) {
      this.info = info;
      this.reference = reference;
      this.hasStatus = hasStatus;
      GroupVersionResource gvr = info.gvr();
      String group = gvr.group().isEmpty() ? "core" : gvr.group().split("\\.", -1)[0];
      this.operationSuffix = capitalize(group) + capitalize(gvr.version())
          + (info.namespaced() ? "Namespaced" : "") + info.kind();
    }

    void addTo(ObjectNode paths) {
      GroupVersionResource gvr = info.gvr();
      String prefix = "/" + pathOf(gvr.group(), gvr.version());
      String collection = prefix + (info.namespaced() ? "/namespaces/{namespace}/" : "/")
          + gvr.resource();
      ObjectNode collectionPath = paths.putObject(collection);
      pathParameters(collectionPath, false);
      collectionPath.set("get", operation("list", "list", LIST_PARAMETERS, false));
      collectionPath.set("post", operation("post", "create", WRITE_PARAMETERS, true));
      collectionPath.set("delete",
          operation("deletecollection", "deleteCollection", LIST_PARAMETERS, false));
      ObjectNode objectPath = paths.putObject(collection + "/{name}");
      pathParameters(objectPath, true);
      objectPath.set("get", operation("get", "read", List.of(), false));
      objectPath.set("put", operation("put", "replace", WRITE_PARAMETERS, true));
      objectPath.set("patch", patch("patch", ""));
      objectPath.set("delete", operation("delete", "delete", DELETE_PARAMETERS, false));
      if (hasStatus) {
        ObjectNode statusPath = paths.putObject(collection + "/{name}/status");
        pathParameters(statusPath, true);
        statusPath.set("get", operation("get", "read", List.of(), false, "Status"));
        statusPath.set("put", operation("put", "replace", WRITE_PARAMETERS, true, "Status"));
        statusPath.set("patch", patch("patch", "Status"));
      }
    }

    private void pathParameters(ObjectNode path, boolean named) {
      ArrayNode parameters = path.putArray("parameters");
      if (named) {
        parameters.add(parameter("name", "path", "name of the " + info.kind()));
      }
      if (info.namespaced()) {
        parameters.add(parameter("namespace", "path", "object name and auth scope"));
      }
      parameters.add(parameter("pretty", "query", "If 'true', then the output is pretty printed."));
    }

    private ObjectNode patch(String action, String suffix) {
      ObjectNode operation = operation(action, "patch", WRITE_PARAMETERS, false, suffix);
      ObjectNode content = operation.putObject("requestBody").put("required", true)
          .putObject("content");
      PATCH_TYPES.forEach(type -> content.putObject(type).putObject("schema")
          .put("type", "object").put("x-kubernetes-preserve-unknown-fields", true));
      return operation;
    }

    private ObjectNode operation(String action, String verb, List<String> query, boolean body) {
      return operation(action, verb, query, body, "");
    }

    private ObjectNode operation(
        String action, String verb, List<String> query, boolean body, String suffix) {
      ObjectNode operation = mapper.createObjectNode();
      operation.put("operationId", verb + operationSuffix + suffix);
      operation.putArray("tags").add(info.gvr().group().isEmpty() ? "core_" + info.gvr().version()
          : info.gvr().group() + "_" + info.gvr().version());
      ArrayNode parameters = operation.putArray("parameters");
      query.forEach(name -> parameters.add(parameter(name, "query", queryDescription(name))));
      if (body) {
        operation.putObject("requestBody").put("required", true).putObject("content")
            .putObject("application/json").putObject("schema").put("$ref", reference);
      }
      ObjectNode response = operation.putObject("responses").putObject("200")
          .put("description", "OK");
      response.putObject("content").putObject("application/json").putObject("schema")
          .put("$ref", reference);
      operation.put("x-kubernetes-action", action);
      operation.putObject("x-kubernetes-group-version-kind")
          .put("group", info.gvr().group())
          .put("kind", info.kind())
          .put("version", info.gvr().version());
      return operation;
    }

    private ObjectNode parameter(String name, String in, String description) {
      ObjectNode parameter = mapper.createObjectNode();
      parameter.put("name", name).put("in", in).put("description", description);
      if (in.equals("path")) {
        parameter.put("required", true);
      }
      String type = switch (name) {
        case "limit", "timeoutSeconds", "gracePeriodSeconds" -> "integer";
        case "watch", "allowWatchBookmarks", "sendInitialEvents" -> "boolean";
        default -> "string";
      };
      parameter.putObject("schema").put("type", type).put("uniqueItems", true);
      return parameter;
    }

    private static String queryDescription(String name) {
      return switch (name) {
        case "fieldValidation" -> "How the server treats unknown fields in the request body: "
            + "Ignore, Warn (the default: a Warning header per field) or Strict (the request "
            + "fails).";
        case "fieldManager" -> "A name for the actor making the change (accepted, not recorded).";
        case "dryRun" -> "All: check and answer as if the request were carried out, without"
            + " storing anything.";
        default -> "The " + name + " option of the Kubernetes API.";
      };
    }

    private static String capitalize(String text) {
      return text.isEmpty() ? text
          : text.substring(0, 1).toUpperCase(Locale.ROOT) + text.substring(1);
    }
  }
}
