package io.github.dra4j.testing.apiserver.internal.dispatch;

import io.github.dra4j.testing.apiserver.ApiVerb;
import io.github.dra4j.testing.apiserver.GroupVersionResource;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;

/**
 * Injected hangs: requests that are read and then held without an answer, as a server whose
 * storage stalls accepts connections and requests and answers none of them. A hang is either
 * "the next N requests with this verb on this resource" or "every request from now on"; a held
 * request is kept as the action that answers it, run when the hang is cleared. Rules are used in
 * the order they were added. Thread-safe: all methods synchronize on the plan, so a request is
 * either held before a {@link #clear} (and then released by it) or served.
 */
public final class HangPlan {

  private static final class Rule {
    private final ApiVerb verb;
    private final String resource;
    private int remaining;

    private Rule(ApiVerb verb, String resource, int remaining) {
      this.verb = verb;
      this.resource = resource;
      this.remaining = remaining;
    }

    private boolean matches(ApiVerb requestVerb, GroupVersionResource requestResource) {
      return requestResource != null && verb == requestVerb
          && (resource == null || resource.equals(requestResource.resource()));
    }
  }

  private final List<Rule> rules = new ArrayList<>();
  private final List<Runnable> held = new ArrayList<>();
  private boolean everything;
  private boolean closed;

  /**
   * Adds a rule for the next matching requests.
   *
   * @param verb the verb to hang
   * @param resource the plural resource name to hang (any version), or null for every resource
   * @param times how many matching requests hang, at least 1
   * @throws IllegalArgumentException if {@code times} is below 1
   */
  public synchronized void add(ApiVerb verb, String resource, int times) {
    Objects.requireNonNull(verb, "verb");
    if (times < 1) {
      throw new IllegalArgumentException("hang times must be at least 1: " + times);
    }
    rules.add(new Rule(verb, resource, times));
  }

  /** Holds every request from now on, whatever its path (discovery and health included). */
  public synchronized void hangEverything() {
    everything = true;
  }

  /**
   * Holds a request if a rule matches it, using up one of that rule's requests.
   *
   * @param verb the request's verb, or null for a path that is not a resource (discovery, health)
   * @param resource the request's resource, or null likewise
   * @param answer what answers the request once the hang is cleared
   * @return true if the request is held: the caller answers nothing now
   */
  public synchronized boolean hold(ApiVerb verb, GroupVersionResource resource, Runnable answer) {
    if (closed) {
      return false;
    }
    boolean hang = everything;
    for (Iterator<Rule> it = rules.iterator(); !hang && it.hasNext();) {
      Rule rule = it.next();
      if (rule.matches(verb, resource)) {
        if (--rule.remaining == 0) {
          it.remove();
        }
        hang = true;
      }
    }
    if (hang) {
      held.add(answer);
    }
    return hang;
  }

  /**
   * Drops every rule and hands back the held requests, for the caller to answer.
   *
   * @return the actions that answer the held requests, in the order they arrived
   */
  public synchronized List<Runnable> clear() {
    rules.clear();
    everything = false;
    List<Runnable> released = List.copyOf(held);
    held.clear();
    return released;
  }

  /** Drops everything for good: held requests are never answered, later ones are served. */
  public synchronized void close() {
    closed = true;
    rules.clear();
    everything = false;
    held.clear();
  }

  /**
   * Counts the requests held now.
   *
   * @return how many requests wait for {@link #clear}
   */
  public synchronized int held() {
    return held.size();
  }

  /**
   * Counts the requests still to be held by rules for the next requests ({@link #add}).
   *
   * @return the sum of the remaining counts
   */
  public synchronized int pending() {
    return rules.stream().mapToInt(r -> r.remaining).sum();
  }

  /**
   * Tells whether every request is held.
   *
   * @return true after {@link #hangEverything} until {@link #clear}
   */
  public synchronized boolean holdsEverything() {
    return everything;
  }
}
