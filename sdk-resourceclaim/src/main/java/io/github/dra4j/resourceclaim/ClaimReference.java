package io.github.dra4j.resourceclaim;

import java.util.Objects;

/**
 * Namespace, name and UID of a ResourceClaim: all the kubelet sends for an unprepare.
 *
 * @param namespace the claim's namespace
 * @param name the claim's name
 * @param uid the claim's UID
 */
public record ClaimReference(String namespace, String name, String uid) {

  /**
   * Rejects nulls; the SDK validates formats before building references.
   *
   * @param namespace the claim's namespace as the kubelet sent it; not null
   * @param name the claim's name as the kubelet sent it; not null
   * @param uid the claim's UID, the key of prepare and unprepare answers; not null, and when empty
   *     {@link #toString()} leaves it out
   * @throws NullPointerException naming the field that is null
   */
  public ClaimReference {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(uid, "uid");
  }

  /**
   * {@code <namespace>/<name>}, the form Kubernetes error messages use.
   *
   * @return namespace and name joined by a slash
   */
  public String namespacedName() {
    return namespace + "/" + name;
  }

  /**
   * {@code <namespace>/<name>:<uid>}, or without the UID part when it is empty.
   *
   * @return a readable form for logs
   */
  @Override
  public String toString() {
    return uid.isEmpty() ? namespacedName() : namespacedName() + ":" + uid;
  }
}
