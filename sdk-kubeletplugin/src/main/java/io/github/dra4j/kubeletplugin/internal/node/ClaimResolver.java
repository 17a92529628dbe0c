package io.github.dra4j.kubeletplugin.internal.node;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.kubeletplugin.internal.claims.ApiCallLimit;
import io.github.dra4j.kubeletplugin.internal.claims.ClaimSource;
import io.github.dra4j.kubeletplugin.internal.logging.LogText;
import io.github.dra4j.resourceclaim.ClaimReference;
import io.grpc.Status;
import io.grpc.StatusException;

/**
 * Fetches the claim the kubelet names and checks it is the allocated object the kubelet means
 * (allocated, still the object with the UID the kubelet sent, and named as the kubelet named it),
 * with the same error texts a Go driver gives, so operators' log searches and alerts carry over.
 * Stateless apart from the borrowed source.
 */
final class ClaimResolver {

  private final ClaimSource source;

  ClaimResolver(ClaimSource source) {
    this.source = source;
  }

  /**
   * Reads and checks a claim.
   *
   * @param ref the kubelet's reference
   * @return the allocated claim with the expected UID
   * @throws ClaimProblem with message {@code get resource claims: ...} otherwise
   * @throws StatusException RESOURCE_EXHAUSTED when too many calls wait for the API server
   *     already ({@link ApiCallLimit}): the whole call is refused, to be tried again
   */
  ResourceClaim resolve(ClaimReference ref) throws ClaimProblem, StatusException {
    ResourceClaim claim;
    try {
      claim = source.get(ref.namespace(), ref.name(), ref.uid());
    } catch (ApiCallLimit.ApiServerBusyException e) {
      throw Status.RESOURCE_EXHAUSTED.withDescription(e.getMessage()).asException();
    } catch (RuntimeException e) {
      throw new ClaimProblem(
          "get resource claims: retrieve claim " + ref.namespacedName() + ": " + e.getMessage(), e);
    }
    if (claim.getStatus() == null || claim.getStatus().getAllocation() == null) {
      throw new ClaimProblem(
          "get resource claims: claim " + ref.namespacedName() + " not allocated", null);
    }
    if (claim.getMetadata() == null || !ref.uid().equals(claim.getMetadata().getUid())) {
      throw new ClaimProblem(
          "get resource claims: claim " + ref.namespacedName() + " got replaced", null);
    }
    // The rest of the plugin takes the claim's name from the object: it must be the one the
    // kubelet named (and checked), not whatever an API server answered.
    String namespace = claim.getMetadata().getNamespace();
    String name = claim.getMetadata().getName();
    if (!ref.namespace().equals(namespace) || !ref.name().equals(name)) {
      throw new ClaimProblem("get resource claims: claim " + ref.namespacedName()
          + ": the API server answered with claim " + LogText.quote(namespace) + "/"
          + LogText.quote(name), null);
    }
    return claim;
  }

  /** A claim that cannot be prepared; fails that claim only. */
  static final class ClaimProblem extends Exception {
    private static final long serialVersionUID = 1L;

    ClaimProblem(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
