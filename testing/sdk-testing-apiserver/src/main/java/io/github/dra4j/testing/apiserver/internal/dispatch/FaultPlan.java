package io.github.dra4j.testing.apiserver.internal.dispatch;

import io.github.dra4j.testing.apiserver.ApiVerb;
import io.github.dra4j.testing.apiserver.GroupVersionResource;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * Injected failures: "answer the next N requests with this verb on this resource with status S".
 * Faults are consumed in the order they were added. Thread-safe (all methods synchronize on the
 * plan).
 */
public final class FaultPlan {

  private static final class Fault {
    private final ApiVerb verb;
    private final String resource;
    private final int status;
    private int remaining;

    private Fault(ApiVerb verb, String resource, int status, int remaining) {
      this.verb = verb;
      this.resource = resource;
      this.status = status;
      this.remaining = remaining;
    }

    private boolean matches(ApiVerb requestVerb, GroupVersionResource requestResource) {
      return verb == requestVerb
          && (resource == null || resource.equals(requestResource.resource()));
    }
  }

  private final List<Fault> faults = new ArrayList<>();

  /**
   * Adds a fault.
   *
   * @param verb the verb to fail
   * @param resource the plural resource name to fail (any version), or null for every resource
   * @param status the HTTP status to answer with, 400 to 599
   * @param times how many matching requests fail, at least 1
   * @throws IllegalArgumentException if status or times is out of range
   */
  public synchronized void add(ApiVerb verb, String resource, int status, int times) {
    Objects.requireNonNull(verb, "verb");
    if (status < 400 || status > 599) {
      throw new IllegalArgumentException("fault status must be 400..599: " + status);
    }
    if (times < 1) {
      throw new IllegalArgumentException("fault times must be at least 1: " + times);
    }
    faults.add(new Fault(verb, resource, status, times));
  }

  /**
   * Consumes one matching fault, if any.
   *
   * @param verb the request's verb
   * @param resource the request's resource
   * @return the status to answer with, or empty to serve the request normally
   */
  public synchronized OptionalInt take(ApiVerb verb, GroupVersionResource resource) {
    for (Iterator<Fault> it = faults.iterator(); it.hasNext();) {
      Fault fault = it.next();
      if (fault.matches(verb, resource)) {
        if (--fault.remaining == 0) {
          it.remove();
        }
        return OptionalInt.of(fault.status);
      }
    }
    return OptionalInt.empty();
  }

  /**
   * Counts the failures still to be injected.
   *
   * @return the sum of the remaining counts of all faults
   */
  public synchronized int pending() {
    return faults.stream().mapToInt(f -> f.remaining).sum();
  }

  /** Drops every fault not yet consumed. */
  public synchronized void clear() {
    faults.clear();
  }
}
