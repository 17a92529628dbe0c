package io.github.dra4j.resourceslice;

import java.util.Objects;

/**
 * The object that owns the published ResourceSlices (an owner reference with {@code controller:
 * true} is put on each), so they are garbage-collected with it. For node-local drivers this is
 * the Node; the controller then also sets {@code spec.nodeName} and looks up a missing UID.
 *
 * @param apiVersion e.g. {@code v1}
 * @param kind e.g. {@code Node}
 * @param name the owner's name
 * @param uid the owner's UID; empty means "look it up" for a Node owner
 */
public record Owner(String apiVersion, String kind, String name, String uid) {

  /**
   * Rejects null or empty {@code apiVersion}, {@code kind} and {@code name}; a null uid becomes
   * empty.
   *
   * @param apiVersion the owner's API version, e.g. {@code v1}; not null or empty
   * @param kind the owner's kind, e.g. {@code Node}; not null or empty
   * @param name the owner's name; not null or empty
   * @param uid the owner's UID; null or empty means "look it up", which the controller does for a
   *     Node owner only
   * @throws IllegalArgumentException naming the field that is null or empty
   */
  public Owner {
    requireText(apiVersion, "apiVersion");
    requireText(kind, "kind");
    requireText(name, "name");
    uid = uid == null ? "" : uid;
  }

  private static void requireText(String value, String field) {
    if (value == null || value.isEmpty()) {
      throw new IllegalArgumentException("owner " + field + " must not be empty: " + value);
    }
  }

  /**
   * The owner for a node-local driver.
   *
   * @param name the node name
   * @param uid the node UID, or null/empty to have the controller look it up once
   * @return {@code {apiVersion: v1, kind: Node, name, uid}}
   */
  public static Owner node(String name, String uid) {
    return new Owner("v1", "Node", name, uid);
  }

  /**
   * Tells whether the owner is a core {@code v1} Node.
   *
   * @return true for a Node owner
   */
  public boolean isNode() {
    return Objects.equals(apiVersion, "v1") && Objects.equals(kind, "Node");
  }
}
