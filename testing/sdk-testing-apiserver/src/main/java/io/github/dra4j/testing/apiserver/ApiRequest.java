package io.github.dra4j.testing.apiserver;

/**
 * One request the in-memory API server answered, as recorded in its request log.
 *
 * @param sequence position in the log, starting at 1
 * @param verb the Kubernetes verb; null for requests that do not address a resource (discovery,
 *     {@code /version})
 * @param resource the addressed resource; null for non-resource requests
 * @param namespace the namespace from the path, or null
 * @param name the object name from the path, or null for collection requests
 * @param path the raw request path including the query
 * @param status the HTTP status code of the answer ({@code 101} for a watch accepted over a
 *     WebSocket, {@code 200} for one streamed as chunked HTTP)
 */
public record ApiRequest(
    long sequence,
    ApiVerb verb,
    GroupVersionResource resource,
    String namespace,
    String name,
    String path,
    int status) {

  /**
   * Tells whether this request addressed the given plural resource name with the given verb.
   *
   * @param verb the verb to compare with
   * @param resourceName the plural resource name, e.g. {@code resourceslices}, in any version
   * @return true if both match
   */
  public boolean is(ApiVerb verb, String resourceName) {
    return this.verb == verb && resource != null && resource.resource().equals(resourceName);
  }

  /**
   * Tells whether this request was a write that the server accepted (status 2xx) and carried out
   * (a {@code dryRun} changes nothing).
   *
   * @return true for a successful create, update, patch, delete or delete-collection
   */
  public boolean isSuccessfulWrite() {
    return verb != null && verb.isWrite() && status >= 200 && status < 300 && !isDryRun();
  }

  /**
   * Tells whether this request only asked what a write would do ({@code dryRun} in its query).
   *
   * @return true for a dry run
   */
  public boolean isDryRun() {
    int query = path.indexOf('?');
    return query >= 0 && ("&" + path.substring(query + 1)).contains("&dryRun=");
  }
}
