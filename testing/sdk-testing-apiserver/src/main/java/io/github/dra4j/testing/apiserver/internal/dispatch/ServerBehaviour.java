package io.github.dra4j.testing.apiserver.internal.dispatch;

import io.github.dra4j.testing.apiserver.GroupVersionResource;
import io.github.dra4j.testing.apiserver.StoredObjectTransformer;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import tools.jackson.databind.node.ObjectNode;

/**
 * The knobs a test turns on the in-memory API server while it runs: disabled group-versions,
 * injected faults and hangs, stored-object transformers, whether the API server's rules for
 * {@code resource.k8s.io} are enforced, and the request log. Thread-safe: every part is a
 * concurrent structure or synchronizes itself.
 */
public final class ServerBehaviour {

  private final Set<String> disabledGroupVersions = ConcurrentHashMap.newKeySet();
  private final Map<GroupVersionResource, List<StoredObjectTransformer>> transformers = new ConcurrentHashMap<>();
  private final FaultPlan faults = new FaultPlan();
  private final HangPlan hangs = new HangPlan();
  private final RequestLog requests = new RequestLog();
  private volatile boolean enforceApiRules = true;

  /**
   * Makes every request on a group-version answer 404, as a server that does not serve it.
   *
   * @param groupVersion e.g. {@code resource.k8s.io/v1}, or {@code v1} for the core group
   */
  public void disable(String groupVersion) {
    disabledGroupVersions.add(groupVersion);
  }

  /**
   * Serves a group-version again.
   *
   * @param groupVersion e.g. {@code resource.k8s.io/v1}
   */
  public void enable(String groupVersion) {
    disabledGroupVersions.remove(groupVersion);
  }

  /**
   * Tells whether a group-version is disabled.
   *
   * @param groupVersion e.g. {@code resource.k8s.io/v1}
   * @return true if requests on it answer 404
   */
  public boolean isDisabled(String groupVersion) {
    return disabledGroupVersions.contains(groupVersion);
  }

  /**
   * Registers a transformer for the states stored for a resource; transformers run in the order
   * they were added.
   *
   * @param resource the resource
   * @param transformer the transformer
   */
  public void addTransformer(GroupVersionResource resource, StoredObjectTransformer transformer) {
    transformers.computeIfAbsent(resource, r -> new CopyOnWriteArrayList<>()).add(transformer);
  }

  /** Removes every transformer. */
  public void clearTransformers() {
    transformers.clear();
  }

  /**
   * Tells whether any transformer is registered for a resource.
   *
   * @param resource the resource
   * @return true if {@link #transform} may change its objects
   */
  public boolean hasTransformers(GroupVersionResource resource) {
    return !transformers.getOrDefault(resource, List.of()).isEmpty();
  }

  /**
   * Applies the transformers of a resource.
   *
   * @param resource the resource
   * @param object a private copy of the object
   * @return the transformed object
   */
  public ObjectNode transform(GroupVersionResource resource, ObjectNode object) {
    ObjectNode result = object;
    for (StoredObjectTransformer transformer : transformers.getOrDefault(resource, List.of())) {
      result = transformer.transform(result);
    }
    return result;
  }

  /**
   * Switches the API server's rules for {@code resource.k8s.io} (validation, defaults, strategies)
   * on or off.
   *
   * @param enabled false to store what clients send as it is, e.g. to plant an object that a real
   *     server would refuse, as one written by an older server might be
   */
  public void enforceApiRules(boolean enabled) {
    this.enforceApiRules = enabled;
  }

  /**
   * Tells whether the API server's rules are enforced.
   *
   * @return true if writes of {@code resource.k8s.io} objects go through them
   */
  public boolean enforcesApiRules() {
    return enforceApiRules;
  }

  /**
   * Returns the fault plan.
   *
   * @return the faults still to be injected
   */
  public FaultPlan faults() {
    return faults;
  }

  /**
   * Returns the hang plan.
   *
   * @return the requests to hold and those held now
   */
  public HangPlan hangs() {
    return hangs;
  }

  /**
   * Returns the request log.
   *
   * @return the log of answered requests
   */
  public RequestLog requests() {
    return requests;
  }
}
