package io.github.dra4j.testing.apiserver.internal.dispatch;

import io.github.dra4j.testing.apiserver.ApiVerb;
import io.github.dra4j.testing.apiserver.GroupVersionResource;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a request path addresses, parsed the way the API server routes it: {@code /api/v1/...}
 * (core group) or {@code /apis/<group>/<version>/...}, then an optional {@code
 * namespaces/<ns>/}, the resource, an optional name and an optional subresource. Paths that stop
 * before the resource are discovery requests; {@code /openapi/v3/...} names an OpenAPI document.
 * Immutable.
 *
 * @param kind what sort of path it is
 * @param verb the Kubernetes verb (resource requests only, otherwise null)
 * @param resource the resource (resource requests only)
 * @param namespace the namespace from the path, or null
 * @param name the object name, or null for collections
 * @param subresource e.g. {@code status}, or null
 * @param discoveryGroup for discovery and OpenAPI paths: the group named ({@code ""} for {@code
 *     /api/...}), or null for {@code /apis} and {@code /openapi/v3}
 * @param discoveryVersion for discovery and OpenAPI paths: the version named, or null
 * @param path the path without the query
 * @param query decoded query parameters
 */
public record RequestTarget(
    Kind kind,
    ApiVerb verb,
    GroupVersionResource resource,
    String namespace,
    String name,
    String subresource,
    String discoveryGroup,
    String discoveryVersion,
    String path,
    Map<String, String> query) {

  /** Sort of path. */
  public enum Kind {
    /** {@code /}. */
    ROOT,
    /** {@code /version}. */
    VERSION,
    /** {@code /healthz}, {@code /livez}, {@code /readyz}. */
    HEALTH,
    /** {@code /api}, {@code /apis}, {@code /apis/<g>}, {@code /api/v1}, {@code /apis/<g>/<v>}. */
    DISCOVERY,
    /**
     * {@code /openapi/v3} (the index; no group named) or {@code /openapi/v3/api/v1}, {@code
     * /openapi/v3/apis/<g>/<v>} (one group-version's document).
     */
    OPENAPI,
    /** A resource or object. */
    RESOURCE,
    /** Anything else (answered with 404). */
    OTHER
  }

  /**
   * Copies the query map.
   *
   * @param kind what sort of path it is; {@link #parse} always sets it
   * @param verb the Kubernetes verb derived from method, name and {@code watch=true}; null unless
   *     {@code kind} is {@link Kind#RESOURCE}
   * @param resource the addressed resource; null unless {@code kind} is {@link Kind#RESOURCE}
   * @param namespace the namespace from a {@code namespaces/<ns>/} segment, or null
   * @param name the object name, or null for a collection
   * @param subresource the path segment after the name, e.g. {@code status}, or null
   * @param discoveryGroup for discovery and OpenAPI paths the group named ({@code ""} for {@code
   *     /api/...}), or null for {@code /apis}, {@code /openapi/v3} and for other kinds
   * @param discoveryVersion for discovery and OpenAPI paths the version named, or null
   * @param path the path as received (not percent-decoded), without the query
   * @param query decoded query parameters (the first value wins for a repeated key); copied, not
   *     null
   * @throws NullPointerException if {@code query} or a key or value in it is null
   */
  public RequestTarget {
    query = Map.copyOf(query);
  }

  /**
   * Parses a request line.
   *
   * @param method the HTTP method, e.g. {@code GET}
   * @param rawPath the path with its query, as received
   * @return the parsed target
   */
  public static RequestTarget parse(String method, String rawPath) {
    int q = rawPath.indexOf('?');
    String path = q < 0 ? rawPath : rawPath.substring(0, q);
    Map<String, String> query = q < 0 ? Map.of() : parseQuery(rawPath.substring(q + 1));
    List<String> segments = Arrays.stream(path.split("/")).filter(s -> !s.isEmpty())
        .map(RequestTarget::decodePathSegment).toList();
    if (segments.isEmpty()) {
      return simple(Kind.ROOT, path, query);
    }
    String first = segments.get(0);
    if (segments.size() == 1 && first.equals("version")) {
      return simple(Kind.VERSION, path, query);
    }
    if (segments.size() == 1 && List.of("healthz", "livez", "readyz").contains(first)) {
      return simple(Kind.HEALTH, path, query);
    }
    if (first.equals("openapi")) {
      return openApi(segments, path, query);
    }
    String group;
    List<String> rest;
    if (first.equals("api")) {
      if (segments.size() == 1) {
        return discovery("", null, path, query);
      }
      group = "";
      rest = segments.subList(1, segments.size());
    } else if (first.equals("apis")) {
      if (segments.size() <= 2) {
        return discovery(segments.size() == 2 ? segments.get(1) : null, null, path, query);
      }
      group = segments.get(1);
      rest = segments.subList(2, segments.size());
    } else {
      return simple(Kind.OTHER, path, query);
    }
    String version = rest.get(0);
    rest = rest.subList(1, rest.size());
    if (rest.isEmpty()) {
      return discovery(group, version, path, query);
    }
    String namespace = null;
    if (rest.get(0).equals("namespaces") && rest.size() >= 3) {
      namespace = rest.get(1);
      rest = rest.subList(2, rest.size());
    }
    if (rest.size() > 3) {
      return simple(Kind.OTHER, path, query);
    }
    String resourceName = rest.get(0);
    String name = rest.size() > 1 ? rest.get(1) : null;
    String subresource = rest.size() > 2 ? rest.get(2) : null;
    ApiVerb verb = verbOf(method, name != null, "true".equals(query.get("watch")));
    return new RequestTarget(
        Kind.RESOURCE,
        verb,
        new GroupVersionResource(group, version, resourceName),
        namespace,
        name,
        subresource,
        null,
        null,
        path,
        query);
  }

  private static ApiVerb verbOf(String method, boolean named, boolean watch) {
    return switch (method) {
      case "POST" -> ApiVerb.CREATE;
      case "PUT" -> ApiVerb.UPDATE;
      case "PATCH" -> ApiVerb.PATCH;
      case "DELETE" -> named ? ApiVerb.DELETE : ApiVerb.DELETE_COLLECTION;
      default -> named ? ApiVerb.GET : watch ? ApiVerb.WATCH : ApiVerb.LIST;
    };
  }

  private static RequestTarget simple(Kind kind, String path, Map<String, String> query) {
    return new RequestTarget(kind, null, null, null, null, null, null, null, path, query);
  }

  private static RequestTarget discovery(
      String group, String version, String path, Map<String, String> query) {
    return new RequestTarget(
        Kind.DISCOVERY, null, null, null, null, null, group, version, path, query);
  }

  private static RequestTarget openApi(
      List<String> segments, String path, Map<String, String> query) {
    if (segments.size() < 2 || !segments.get(1).equals("v3")) {
      return simple(Kind.OTHER, path, query);
    }
    List<String> rest = segments.subList(2, segments.size());
    if (rest.isEmpty()) {
      return openApi(null, null, path, query);
    }
    if (rest.size() == 2 && rest.get(0).equals("api")) {
      return openApi("", rest.get(1), path, query);
    }
    if (rest.size() == 3 && rest.get(0).equals("apis")) {
      return openApi(rest.get(1), rest.get(2), path, query);
    }
    return simple(Kind.OTHER, path, query);
  }

  private static RequestTarget openApi(
      String group, String version, String path, Map<String, String> query) {
    return new RequestTarget(
        Kind.OPENAPI, null, null, null, null, null, group, version, path, query);
  }

  private static Map<String, String> parseQuery(String rawQuery) {
    Map<String, String> query = new LinkedHashMap<>();
    for (String pair : rawQuery.split("&", -1)) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String key = decodeQueryPart(eq < 0 ? pair : pair.substring(0, eq));
      String value = eq < 0 ? "" : decodeQueryPart(pair.substring(eq + 1));
      query.putIfAbsent(key, value);
    }
    return query;
  }

  private static String decodePathSegment(String text) {
    return URLDecoder.decode(text.replace("+", "%2B"), StandardCharsets.UTF_8);
  }

  /** Decodes like Go's {@code url.ParseQuery}, which the API server uses: {@code +} is a space. */
  private static String decodeQueryPart(String text) {
    return URLDecoder.decode(text, StandardCharsets.UTF_8);
  }

  /**
   * Returns a query parameter.
   *
   * @param key the parameter name
   * @return the decoded value, or null if absent
   */
  public String queryParameter(String key) {
    return query.get(key);
  }

  /**
   * Builds the path of one object of a resource.
   *
   * @param resource the resource
   * @param namespace the object's namespace, or null for cluster-scoped objects
   * @param name the object's name
   * @return e.g. {@code /apis/resource.k8s.io/v1/resourceslices/a}
   */
  public static String objectPath(GroupVersionResource resource, String namespace, String name) {
    StringBuilder path = new StringBuilder();
    path.append(resource.group().isEmpty() ? "/api" : "/apis/" + resource.group());
    path.append('/').append(resource.version());
    if (namespace != null && !namespace.isEmpty()) {
      path.append("/namespaces/").append(namespace);
    }
    return path.append('/').append(resource.resource()).append('/').append(name).toString();
  }
}
