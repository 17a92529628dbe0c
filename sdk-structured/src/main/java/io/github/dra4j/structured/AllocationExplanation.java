package io.github.dra4j.structured;

import io.github.dra4j.core.stability.KubernetesAlpha;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Why claims get the devices they get on a node, or none: the result of {@link
 * StructuredAllocator#explain}. It holds the allocator's own {@link #outcome()} and, per request
 * (each {@code firstAvailable} subrequest on its own), every device considered with the first
 * reason it cannot serve that request alone, or {@link Reason#USABLE}. Devices are judged one at a
 * time against what is already allocated, so a request may list enough usable devices and still
 * fail as a combination (constraints, or the claims' requests competing for the same devices);
 * {@link #outcome()} says what the search made of them. Immutable.
 *
 * @param nodeName the node the claims were explained for
 * @param outcome what {@link StructuredAllocator#allocate(List, AllocatorInputs)} returns for the
 *     same claims and inputs
 * @param claims one explanation per claim, in input order; empty when the attempt failed before
 *     any claim was looked at (e.g. a slice's node selector cannot be parsed)
 * @param notConsidered the slices of the cluster the allocator leaves out on every node, per pool
 *     and reason: an older generation of a pool that has a newer one, a slice that needs a feature
 *     that is off, a slice without driver or pool name; their devices appear nowhere else
 */
public record AllocationExplanation(
    String nodeName, AllocationOutcome outcome, List<ClaimExplanation> claims,
    List<NotConsidered> notConsidered) {

  /**
   * Checks and copies.
   *
   * @param nodeName the node; not null
   * @param outcome the allocator's outcome; not null
   * @param claims the claims' explanations; copied, no null elements
   * @param notConsidered the slices left out; copied, no null elements
   * @throws NullPointerException if an argument or element is null
   */
  public AllocationExplanation {
    Objects.requireNonNull(nodeName, "nodeName");
    Objects.requireNonNull(outcome, "outcome");
    claims = List.copyOf(claims);
    notConsidered = List.copyOf(notConsidered);
  }

  /**
   * An explanation without slices left out.
   *
   * @param nodeName the node; not null
   * @param outcome the allocator's outcome; not null
   * @param claims the claims' explanations; copied, no null elements
   * @throws NullPointerException if an argument or element is null
   */
  public AllocationExplanation(
      String nodeName, AllocationOutcome outcome, List<ClaimExplanation> claims) {
    this(nodeName, outcome, claims, List.of());
  }

  /**
   * Slices whose devices are not listed device by device, summed up per pool in one line.
   *
   * @param driver the slices' driver; empty when a slice names none
   * @param pool the slices' pool; empty when a slice names none
   * @param slices the slices' names, in name order
   * @param reason why they are left out, for people (e.g. {@code generation 3 superseded by
   *     generation 4, not considered})
   */
  public record NotConsidered(String driver, String pool, List<String> slices, String reason) {
    /**
     * Checks and copies.
     *
     * @param driver the driver; not null
     * @param pool the pool; not null
     * @param slices the slice names; copied, no null elements
     * @param reason the reason; not null
     * @throws NullPointerException if an argument or element is null
     */
    public NotConsidered {
      Objects.requireNonNull(driver, "driver");
      Objects.requireNonNull(pool, "pool");
      slices = List.copyOf(slices);
      Objects.requireNonNull(reason, "reason");
    }

    /**
     * Returns the pool's identity.
     *
     * @return {@code driver/pool}, or empty when the slices name no driver or pool
     */
    public String poolId() {
      return driver.isEmpty() && pool.isEmpty() ? "" : driver + "/" + pool;
    }
  }

  /** Why a device cannot serve a request on its own; the first failed check, in this order. */
  public enum Reason {
    /** Passes every check on its own (it may still lose to other requests or constraints). */
    USABLE,
    /** Published for other nodes only: its slice (or its own node selection) excludes the node. */
    WRONG_NODE,
    /** Its pool's newest generation is not completely visible: the driver is updating it. */
    POOL_INCOMPLETE,
    /** Its pool is invalid (duplicate names, unknown counters, bad quantities...). */
    POOL_INVALID,
    /** It has binding conditions and the allocator's binding-conditions feature is off. */
    BINDING_CONDITIONS_UNSUPPORTED,
    /** A selector of the DeviceClass is false for it. */
    CLASS_SELECTOR_FALSE,
    /** A selector of the request is false for it. */
    REQUEST_SELECTOR_FALSE,
    /** A selector fails on it with a CEL runtime error, which aborts the whole attempt. */
    SELECTOR_ERROR,
    /** Another claim holds it (admin-access requests are not stopped by this). */
    ALREADY_ALLOCATED,
    /** It consumes shared counters and the partitionable-devices feature is off. */
    COUNTERS_UNSUPPORTED,
    /** The shared counters it consumes are used up by allocated devices. */
    COUNTERS_EXHAUSTED,
    /** It has a NoSchedule or NoExecute taint the request does not tolerate. */
    @KubernetesAlpha(feature = "DRADeviceTaints", since = "1.33", beta = "1.36")
    TAINT_NOT_TOLERATED,
    /** Consumable capacity: a capacity is missing, not allowed by its policy, or used up. */
    CAPACITY_INSUFFICIENT,
    /** It lacks the attribute a {@code matchAttribute}/{@code distinctAttribute} constraint needs. */
    CONSTRAINT_ATTRIBUTE_MISSING
  }

  /**
   * One claim.
   *
   * @param claim {@code namespace/name}, as Kubernetes names claims in messages
   * @param requests one explanation per request, or per subrequest of a {@code firstAvailable}
   *     request (named {@code request/subrequest}), in spec order
   */
  public record ClaimExplanation(String claim, List<RequestExplanation> requests) {
    /**
     * Checks and copies.
     *
     * @param claim the claim's name; not null
     * @param requests the requests' explanations; copied, no null elements
     * @throws NullPointerException if an argument or element is null
     */
    public ClaimExplanation {
      Objects.requireNonNull(claim, "claim");
      requests = List.copyOf(requests);
    }
  }

  /**
   * One request or subrequest.
   *
   * @param request the request's name, {@code request/subrequest} for a subrequest
   * @param deviceClass the DeviceClass it names (empty if it names none)
   * @param mode {@code ExactCount} or {@code All} (after API defaults), as written otherwise
   * @param count devices needed: the count for {@code ExactCount}; for {@code All} the number of
   *     matching devices the allocator must take; 0 when {@link #error()} is set
   * @param error the allocator's error for this request alone (class not found, bad selector,
   *     {@code All} on a pool being updated...), empty when it could be planned
   * @param devices every device considered, in the allocator's scan order, then devices of other
   *     nodes that match the request's selectors ({@link Reason#WRONG_NODE}); empty on error
   * @param allocated {@code driver/pool/device} of the devices the allocation gives this request,
   *     in the order chosen; empty unless the outcome is allocated
   * @param unmatchedElsewhere devices of other nodes that the request's selectors do not match,
   *     not listed in {@link #devices()}: one line per pool and node, with their number
   */
  public record RequestExplanation(
      String request,
      String deviceClass,
      String mode,
      int count,
      Optional<String> error,
      List<DeviceVerdict> devices,
      List<String> allocated,
      List<NotConsidered> unmatchedElsewhere) {
    /**
     * Checks and copies.
     *
     * @param request the name; not null
     * @param deviceClass the class name; not null
     * @param mode the allocation mode; not null
     * @param count devices needed, at least 0
     * @param error the request's error; not null
     * @param devices the verdicts; copied, no null elements
     * @param allocated the allocated device ids; copied, no null elements
     * @param unmatchedElsewhere the other nodes' devices not matched; copied, no null elements
     * @throws NullPointerException if an argument or element is null
     */
    public RequestExplanation {
      Objects.requireNonNull(request, "request");
      Objects.requireNonNull(deviceClass, "deviceClass");
      Objects.requireNonNull(mode, "mode");
      Objects.requireNonNull(error, "error");
      devices = List.copyOf(devices);
      allocated = List.copyOf(allocated);
      unmatchedElsewhere = List.copyOf(unmatchedElsewhere);
    }

    /**
     * A request explanation without other nodes' unmatched devices.
     *
     * @param request the name; not null
     * @param deviceClass the class name; not null
     * @param mode the allocation mode; not null
     * @param count devices needed, at least 0
     * @param error the request's error; not null
     * @param devices the verdicts; copied, no null elements
     * @param allocated the allocated device ids; copied, no null elements
     * @throws NullPointerException if an argument or element is null
     */
    public RequestExplanation(String request, String deviceClass, String mode, int count,
        Optional<String> error, List<DeviceVerdict> devices, List<String> allocated) {
      this(request, deviceClass, mode, count, error, devices, allocated, List.of());
    }

    /**
     * Counts the devices that could serve this request on their own.
     *
     * @return the number of {@link Reason#USABLE} verdicts
     */
    public long usable() {
      return devices.stream().filter(d -> d.reason() == Reason.USABLE).count();
    }
  }

  /**
   * One device and why it cannot serve a request.
   *
   * @param driver the driver
   * @param pool the pool
   * @param device the device name
   * @param slice the ResourceSlice it was read from
   * @param reason the first check it fails, or {@link Reason#USABLE}
   * @param detail for people: which selector and condition was false, which taint, which claim
   *     holds it, which counter or capacity is short, which node the slice is for; empty when
   *     there is nothing to add
   */
  public record DeviceVerdict(
      String driver, String pool, String device, String slice, Reason reason, String detail) {
    /**
     * Checks the arguments.
     *
     * @param driver the driver; not null
     * @param pool the pool; not null
     * @param device the device name; not null
     * @param slice the slice name; not null
     * @param reason the verdict; not null
     * @param detail the explanation; not null, may be empty
     * @throws NullPointerException if an argument is null
     */
    public DeviceVerdict {
      Objects.requireNonNull(driver, "driver");
      Objects.requireNonNull(pool, "pool");
      Objects.requireNonNull(device, "device");
      Objects.requireNonNull(slice, "slice");
      Objects.requireNonNull(reason, "reason");
      Objects.requireNonNull(detail, "detail");
    }

    /**
     * Returns the device's identity.
     *
     * @return {@code driver/pool/device}, as allocation results and Kubernetes messages name it
     */
    public String id() {
      return driver + "/" + pool + "/" + device;
    }
  }
}
