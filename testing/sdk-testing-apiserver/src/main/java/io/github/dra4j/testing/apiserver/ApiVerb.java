package io.github.dra4j.testing.apiserver;

/**
 * The Kubernetes verb of a request, derived from its HTTP method and path the way the real API
 * server does: {@code GET} of one object is {@link #GET}, of a collection {@link #LIST} (or
 * {@link #WATCH} with {@code watch=true}); {@code POST} is {@link #CREATE}; {@code PUT} is
 * {@link #UPDATE}; {@code PATCH} is {@link #PATCH}; {@code DELETE} of one object is {@link #DELETE},
 * of a collection {@link #DELETE_COLLECTION}.
 */
public enum ApiVerb {
  /** Read one object. */
  GET,
  /** Read a collection. */
  LIST,
  /** Stream changes of a collection. */
  WATCH,
  /** Create an object ({@code POST}). */
  CREATE,
  /** Replace an object ({@code PUT}). */
  UPDATE,
  /** Patch an object. */
  PATCH,
  /** Delete one object. */
  DELETE,
  /** Delete every object of a collection that matches the selectors. */
  DELETE_COLLECTION;

  /**
   * Tells whether the verb changes stored state.
   *
   * @return true for create, update, patch, delete and delete-collection
   */
  public boolean isWrite() {
    return this == CREATE || this == UPDATE || this == PATCH || this == DELETE
        || this == DELETE_COLLECTION;
  }
}
