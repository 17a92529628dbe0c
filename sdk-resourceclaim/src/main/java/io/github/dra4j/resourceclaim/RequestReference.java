package io.github.dra4j.resourceclaim;

import io.github.dra4j.core.name.NameRules;
import java.util.Objects;
import java.util.Optional;

/**
 * A reference to a request of a ResourceClaim as it appears in allocation results, device
 * configurations and constraints: {@code <request>} for a request with an exact device
 * selection, {@code <request>/<subrequest>} for the alternative chosen from a request's {@code
 * firstAvailable} list. Both names are DNS labels, so a reference has at most one slash.
 *
 * <p>Containers refer only to top-level requests, so the kubelet and containers see {@link
 * #request()} alone; configurations and allocation results keep the full reference. Immutable.
 *
 * @param request the top-level request's name
 * @param subRequest the sub-request's name, or null for a reference to a top-level request
 */
public record RequestReference(String request, String subRequest) {

  /**
   * Checks both names.
   *
   * @param request the top-level request's name, a DNS label
   * @param subRequest the sub-request's name, a DNS label, or null
   * @throws IllegalArgumentException naming the part and the value if a name is not a DNS label
   * @throws NullPointerException if {@code request} is null
   */
  public RequestReference {
    Objects.requireNonNull(request, "request");
    check("request", request);
    if (subRequest != null) {
      check("subrequest", subRequest);
    }
  }

  /**
   * A reference to a top-level request.
   *
   * @param request the request's name
   * @return the reference
   * @throws IllegalArgumentException if the name is not a DNS label
   */
  public static RequestReference of(String request) {
    return new RequestReference(request, null);
  }

  /**
   * A reference to a sub-request of a request.
   *
   * @param request the top-level request's name
   * @param subRequest the sub-request's name
   * @return the reference
   * @throws IllegalArgumentException if a name is not a DNS label
   */
  public static RequestReference of(String request, String subRequest) {
    return new RequestReference(request, Objects.requireNonNull(subRequest, "subRequest"));
  }

  /**
   * Parses {@code <request>} or {@code <request>/<subrequest>}.
   *
   * @param reference the reference as written in an object
   * @return the reference
   * @throws IllegalArgumentException {@code request reference "<value>": ...} naming what is
   *     wrong: empty, more than one slash, or a part that is not a DNS label
   */
  public static RequestReference parse(String reference) {
    Objects.requireNonNull(reference, "reference");
    int slash = reference.indexOf('/');
    try {
      if (slash < 0) {
        return new RequestReference(reference, null);
      }
      if (reference.indexOf('/', slash + 1) >= 0) {
        throw new IllegalArgumentException("has more than one '/'");
      }
      return new RequestReference(reference.substring(0, slash), reference.substring(slash + 1));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "request reference \"" + reference + "\": " + e.getMessage(), e);
    }
  }

  /**
   * The top-level request of a reference without checking it: the text before the first slash,
   * or the whole text. For references that were checked where they entered the process.
   *
   * @param reference {@code <request>} or {@code <request>/<subrequest>}
   * @return the top-level request's name
   */
  public static String baseRequest(String reference) {
    int slash = reference.indexOf('/');
    return slash < 0 ? reference : reference.substring(0, slash);
  }

  /**
   * Whether this refers to a sub-request.
   *
   * @return true for {@code <request>/<subrequest>}
   */
  public boolean isSubRequest() {
    return subRequest != null;
  }

  /**
   * Whether a configuration or constraint naming this reference applies to an allocation result
   * of {@code result}: a top-level reference {@code a} covers {@code a} and every {@code a/<any>};
   * a sub-request reference {@code a/b} covers only {@code a/b}.
   *
   * @param result the request reference of an allocation result
   * @return true if this reference covers it
   */
  public boolean covers(RequestReference result) {
    return request.equals(result.request())
        && (subRequest == null || subRequest.equals(result.subRequest()));
  }

  /**
   * The reference as written in objects.
   *
   * @return {@code <request>} or {@code <request>/<subrequest>}
   */
  @Override
  public String toString() {
    return subRequest == null ? request : request + "/" + subRequest;
  }

  private static void check(String part, String name) {
    Optional<String> problem = NameRules.dnsLabel(name);
    if (problem.isPresent()) {
      throw new IllegalArgumentException(part + " name: " + problem.get());
    }
  }
}
