package io.github.dra4j.structured;

import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatus;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatusBuilder;
import io.github.dra4j.cel.DeviceSelectorEnvironment;
import io.github.dra4j.core.stability.KubernetesAlpha;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Allocates devices to ResourceClaims the way the Kubernetes scheduler does for one node
 * (structured parameters, the "incubating" allocator of Kubernetes 1.36, or the "experimental"
 * one when {@link AllocatorFeatures#listTypeAttributes} is on): pools and slice generations, the
 * scheduler's device order and backtracking, {@code ExactCount} and {@code All}, {@code
 * firstAvailable}, {@code matchAttribute}/{@code distinctAttribute} constraints, admin access,
 * shared counters, taints and tolerations, consumable capacity and shareable devices, binding
 * conditions, and devices already held by other claims. Which of the beta and alpha features are
 * honoured is set by {@link AllocatorFeatures}.
 *
 * <p>Everything is in memory: pass the DeviceClasses, ResourceSlices and allocated claims in
 * {@link AllocatorInputs}. The claims given to {@code allocate} are never modified; on success the
 * outcome holds copies with {@code status.allocation} set. Selectors are compiled, like the
 * scheduler does, in the stored-expressions CEL environment, by default the shared {@link
 * DeviceSelectorEnvironment#stored()}.
 *
 * <p>An allocator is immutable and thread-safe: concurrent {@code allocate} calls do not share
 * search state (each builds its own), only the CEL compile cache.
 */
public final class StructuredAllocator {

  /** Default cap on device placements tried by one allocation attempt. */
  public static final long DEFAULT_SEARCH_STEP_LIMIT = 5_000_000;

  private static final Logger LOG = LoggerFactory.getLogger(StructuredAllocator.class);

  private final DeviceSelectorEnvironment environment;
  private final AllocatorFeatures features;
  private final boolean applyApiDefaults;
  private final Supplier<String> shareIds;
  private final long searchStepLimit;

  private StructuredAllocator(Builder builder) {
    this.environment = builder.environment != null ? builder.environment
        : DeviceSelectorEnvironment.stored();
    this.features = builder.features;
    this.applyApiDefaults = builder.applyApiDefaults;
    this.shareIds = builder.shareIds;
    this.searchStepLimit = builder.searchStepLimit;
  }

  /**
   * Returns an allocator with the default features of a Kubernetes 1.36 scheduler, API defaults
   * applied and the shared CEL environment.
   *
   * @return an allocator configured like {@code builder().build()}: {@link
   *     AllocatorFeatures#DEFAULTS}, {@link DeviceSelectorEnvironment#stored()}, random share IDs
   *     and a step limit of {@value #DEFAULT_SEARCH_STEP_LIMIT}
   */
  public static StructuredAllocator create() {
    return builder().build();
  }

  /**
   * Returns a builder.
   *
   * @return a builder holding the defaults of {@link #create()}
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns the features this allocator honours.
   *
   * @return the features given to {@link Builder#features}, {@link AllocatorFeatures#DEFAULTS}
   *     by default
   */
  public AllocatorFeatures features() {
    return features;
  }

  /**
   * Allocates one claim.
   *
   * @param claim the claim; it must not have an allocation yet
   * @param inputs classes, slices, node and allocated claims
   * @return the allocated copy, {@code cannot allocate all claims}, or the error
   */
  public AllocationOutcome allocate(ResourceClaim claim, AllocatorInputs inputs) {
    return allocate(List.of(claim), inputs);
  }

  /**
   * Allocates several claims together (like the claims of one pod): either all get devices or
   * none does. An error in any claim fails the whole attempt, as in the scheduler.
   *
   * @param claims the claims, none allocated yet, in the order the search handles them
   * @param inputs classes, slices, node and allocated claims
   * @return copies of all claims with their allocation, {@code cannot allocate all claims}, or
   *     the error
   */
  public AllocationOutcome allocate(List<ResourceClaim> claims, AllocatorInputs inputs) {
    Objects.requireNonNull(claims, "claims");
    Objects.requireNonNull(inputs, "inputs");
    try {
      AllocationOutcome outcome = attempt(claims, inputs);
      LOG.debug("allocation on node {} for {}: {}", inputs.nodeName(), names(claims), outcome);
      return outcome;
    } catch (AllocationError e) {
      LOG.debug("allocation on node {} for {} failed: {}", inputs.nodeName(), names(claims),
          e.getMessage());
      return new AllocationOutcome.Failed(e.getMessage(), e.nodeLocal());
    }
  }

  /**
   * Allocates claims as {@link #allocate(List, AllocatorInputs)} does and explains the result:
   * per request (and {@code firstAvailable} subrequest), every device considered with the first
   * reason it cannot serve the request on its own (which selector and condition is false, which
   * taint is not tolerated, which claim holds it, which counter or capacity is short, which node
   * it is published for), and the devices the allocation would give it. For tools such as {@code
   * dra4j explain}; it costs a second pass over the devices, and {@code allocate} never pays for
   * it.
   *
   * @param claims the claims, in the order the search handles them; an allocated claim makes the
   *     outcome fail as in {@code allocate}, and gets an explanation without requests
   * @param inputs classes, slices, node and allocated claims
   * @return the explanation; its {@link AllocationExplanation#outcome()} is what {@code allocate}
   *     returns for the same arguments
   * @throws NullPointerException if an argument is null
   */
  public AllocationExplanation explain(List<ResourceClaim> claims, AllocatorInputs inputs) {
    AllocationOutcome outcome = allocate(claims, inputs);
    return new AllocationExplainer(environment, features, applyApiDefaults,
        classesByName(inputs.deviceClasses())).explain(claims, inputs, outcome);
  }

  private static List<String> names(List<ResourceClaim> claims) {
    return claims.stream().map(ClaimNames::of).toList();
  }

  private AllocationOutcome attempt(List<ResourceClaim> claims, AllocatorInputs inputs)
      throws AllocationError {
    List<ResourceClaim> copies = new ArrayList<>();
    for (ResourceClaim claim : claims) {
      if (claim.getStatus() != null && claim.getStatus().getAllocation() != null) {
        throw new AllocationError("claim " + ClaimNames.of(claim) + ": is already allocated");
      }
      copies.add(ClaimDefaults.copy(claim, applyApiDefaults));
    }
    NodeSelection node = new NodeSelection(inputs.nodeName(), inputs.nodeLabels());
    PoolGathering gathering = new PoolGathering(features, node);
    List<Pool> pools = gathering.gather(inputs.slices());
    AllocatedState allocated = new AllocatedState(inputs.allocatedClaims(), features);
    SelectorMatcher matcher = new SelectorMatcher(environment, features, gathering);
    List<ClaimPlan> plans = new ClaimPlanner(features, classesByName(inputs.deviceClasses()), pools,
        allocated, matcher)
        .plan(copies);
    List<PoolDevice> scanOrder = new ArrayList<>();
    pools.stream().filter(Pool::usable).forEach(pool -> scanOrder.addAll(pool.devices()));
    AllocationSearch search = new AllocationSearch(plans, scanOrder, features, allocated, matcher,
        new CounterLedger(pools, allocated), shareIds, searchStepLimit);
    if (search.run() != AllocationSearch.Outcome.DONE) {
      List<String> invalid = pools.stream()
          .filter(pool -> pool.invalidReason() != null)
          .map(pool -> "pool " + pool.id() + ": " + pool.invalidReason())
          .toList();
      if (!invalid.isEmpty()) {
        throw new AllocationError(
            "invalid resource pools were encountered: " + String.join("; ", invalid), true, null);
      }
      return new AllocationOutcome.Unsatisfiable(AllocationOutcome.CANNOT_ALLOCATE);
    }
    ResultAssembler assembler = new ResultAssembler(features, inputs.nodeName());
    List<ResourceClaim> allocatedClaims = new ArrayList<>();
    for (int i = 0; i < plans.size(); i++) {
      ClaimPlan plan = plans.get(i);
      List<RequestPlan> chosen = new ArrayList<>();
      for (int r = 0; r < plan.requests().size(); r++) {
        chosen.add(search.chosenPlan(i, r));
      }
      AllocationResult result = assembler.assemble(plan, chosen, search.results().get(i));
      ResourceClaim claim = plan.claim();
      ResourceClaimStatus status = claim.getStatus() == null
          ? new ResourceClaimStatusBuilder().build()
          : new ResourceClaimStatusBuilder(claim.getStatus()).build();
      status.setAllocation(result);
      claim.setStatus(status);
      allocatedClaims.add(claim);
    }
    return new AllocationOutcome.Allocated(allocatedClaims);
  }

  private static Map<String, DeviceClass> classesByName(List<DeviceClass> classes) {
    Map<String, DeviceClass> byName = new HashMap<>();
    for (DeviceClass deviceClass : classes) {
      if (deviceClass.getMetadata() != null && deviceClass.getMetadata().getName() != null) {
        byName.putIfAbsent(deviceClass.getMetadata().getName(), deviceClass);
      }
    }
    return byName;
  }

  /** Configures an allocator; not thread-safe, use from one thread. */
  public static final class Builder {
    private DeviceSelectorEnvironment environment;
    private AllocatorFeatures features = AllocatorFeatures.DEFAULTS;
    private boolean applyApiDefaults = true;
    private Supplier<String> shareIds = () -> UUID.randomUUID().toString();
    private long searchStepLimit = DEFAULT_SEARCH_STEP_LIMIT;

    private Builder() {}

    /**
     * Compiles selectors in the given environment instead of the shared {@link
     * DeviceSelectorEnvironment#stored()} (the default), e.g. one with a compile cache of its own.
     *
     * @param environment a stored-expressions environment, as the scheduler compiles with; its
     *     compile cache is shared with every other user of it
     * @return this builder
     * @throws NullPointerException if {@code environment} is null
     * @throws IllegalArgumentException if {@code environment} is a new-expressions environment:
     *     the scheduler never uses one
     */
    public Builder selectorEnvironment(DeviceSelectorEnvironment environment) {
      Objects.requireNonNull(environment, "environment");
      if (environment.newExpressionOptions().isPresent()) {
        throw new IllegalArgumentException("selectorEnvironment must be a stored-expressions"
            + " environment, as the scheduler uses, got " + environment);
      }
      this.environment = environment;
      return this;
    }

    /**
     * Sets the features (default {@link AllocatorFeatures#DEFAULTS}).
     *
     * @param features the DRA features to honour, like the scheduler's feature gates
     * @return this builder
     * @throws NullPointerException if {@code features} is null
     */
    public Builder features(AllocatorFeatures features) {
      this.features = Objects.requireNonNull(features, "features");
      return this;
    }

    /**
     * Whether to apply the API server's defaults to the claims first (default true). Turn it off
     * to see how the Kubernetes allocator treats undefaulted claims.
     *
     * @param apply true to default an empty {@code allocationMode} to {@code ExactCount}, a
     *     missing or zero count to 1 and an empty toleration operator to {@code Equal} (on copies;
     *     the input claims are never changed); false to allocate the claims as given
     * @return this builder
     */
    public Builder applyApiDefaults(boolean apply) {
      this.applyApiDefaults = apply;
      return this;
    }

    /**
     * Sets where share IDs of shareable devices come from (default: random UUIDs), e.g. to get
     * predictable IDs in a test. Shareable devices follow consumable capacity (feature gate {@code
     * DRAConsumableCapacity}, beta in Kubernetes 1.36).
     *
     * @param shareIds called each time the search places a request on a shareable device (values
     *     of placements undone by backtracking are dropped); a kept value becomes that device
     *     result's {@code shareID}. Called on the allocating thread, so it must be thread-safe if
     *     allocations run concurrently.
     * @return this builder
     * @throws NullPointerException if {@code shareIds} is null
     */
    @KubernetesAlpha(feature = "DRAConsumableCapacity", since = "1.34", beta = "1.36")
    public Builder shareIds(Supplier<String> shareIds) {
      this.shareIds = Objects.requireNonNull(shareIds, "shareIds");
      return this;
    }

    /**
     * Caps the backtracking search (default {@value StructuredAllocator#DEFAULT_SEARCH_STEP_LIMIT}
     * device placements per attempt). The scheduler bounds the search by a timeout; a cap keeps a
     * pathological claim from hanging a test: the attempt then fails with {@code filter operation
     * aborted: ...}.
     *
     * @param steps the most device placements one attempt may try; at least 1
     * @return this builder
     * @throws IllegalArgumentException if {@code steps} is less than 1
     */
    public Builder searchStepLimit(long steps) {
      if (steps < 1) {
        throw new IllegalArgumentException("searchStepLimit must be at least 1, was " + steps);
      }
      this.searchStepLimit = steps;
      return this;
    }

    /**
     * Builds the allocator.
     *
     * @return an immutable, thread-safe allocator; later changes to this builder do not affect it
     */
    public StructuredAllocator build() {
      return new StructuredAllocator(this);
    }
  }
}
