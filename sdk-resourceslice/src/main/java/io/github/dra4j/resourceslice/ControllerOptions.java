package io.github.dra4j.resourceslice;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.dra4j.core.option.OptionChecks;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Settings of a {@link ResourceSliceController}. Immutable. Configure and start a controller with
 * {@link ResourceSliceController#builder()}: null is refused at the setter with the option's name;
 * missing required settings (driver name, client) are reported by {@link Builder#start()} with
 * what is missing and the option that sets it ({@code create controller: DRA driver name is
 * empty}, {@code create controller: no Kubernetes API client: set one with the builder's
 * client(KubernetesClient), ...}), and so is a driver name the API server would refuse in the
 * slices ({@code create controller: DRA driver name "GPU": metadata.generateName: Invalid value:
 * ...}).
 */
public final class ControllerOptions {

  /**
   * Default delay between a slice event and the resulting pool sync: the events of a pool within
   * it, the echoes of the controller's own writes among them, lead to one sync (Go's {@code
   * DefaultSyncDelay}).
   */
  public static final Duration DEFAULT_SYNC_DELAY = Duration.ofSeconds(30);

  /**
   * Default lifetime of mutation-cache entries: how long the controller trusts its own write over
   * an informer that has not seen it yet (Go's {@code DefaultMutationCacheTTL}).
   */
  public static final Duration DEFAULT_MUTATION_CACHE_TTL = Duration.ofMinutes(1);

  /** Default delay before recreating a slice that someone else deleted. */
  public static final Duration DEFAULT_RECREATE_DELAY = Duration.ofSeconds(1);

  /** Default time {@code start} waits for the first list of ResourceSlices. */
  public static final Duration DEFAULT_START_TIMEOUT = Duration.ofMinutes(1);

  private static final Logger LOG = LoggerFactory.getLogger(ResourceSliceController.class);

  private final String driverName;
  private final KubernetesClient client;
  private final Owner owner;
  private final DriverResources resources;
  private final Duration syncDelay;
  private final Duration mutationCacheTtl;
  private final Duration recreateDelay;
  private final Duration startTimeout;
  private final ErrorHandler errorHandler;
  private final String reconcilePoolWithName;
  private final MeterRegistry meterRegistry;
  private final PoolStatusListener poolStatusListener;

  private ControllerOptions(Builder b) {
    this.driverName = b.driverName;
    this.client = b.client;
    this.owner = b.owner;
    this.resources = b.resources;
    this.syncDelay = b.syncDelay;
    this.mutationCacheTtl = b.mutationCacheTtl;
    this.recreateDelay = b.recreateDelay;
    this.startTimeout = b.startTimeout;
    this.errorHandler = b.errorHandler;
    this.reconcilePoolWithName = b.reconcilePoolWithName;
    this.meterRegistry = b.meterRegistry;
    this.poolStatusListener = b.poolStatusListener;
  }

  /**
   * Starts building options.
   *
   * @return a builder with the defaults
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns the DRA driver name, written to {@code spec.driver}.
   *
   * @return the driver name (may be null or empty if never set; start rejects it)
   */
  public String driverName() {
    return driverName;
  }

  /**
   * Returns the API client.
   *
   * @return the client (may be null if never set; start rejects it)
   */
  public KubernetesClient client() {
    return client;
  }

  /**
   * Returns the owner of the slices.
   *
   * @return the owner, or null for slices without owner
   */
  public Owner owner() {
    return owner;
  }

  /**
   * Returns the resources published right after start.
   *
   * @return the initial resources, or null for none
   */
  public DriverResources resources() {
    return resources;
  }

  /**
   * Returns the delay between a slice event and the pool sync it triggers.
   *
   * @return the sync delay (default 30 s)
   */
  public Duration syncDelay() {
    return syncDelay;
  }

  /**
   * Returns how long written slices override the informer's view.
   *
   * @return the mutation cache TTL (default 1 min)
   */
  public Duration mutationCacheTtl() {
    return mutationCacheTtl;
  }

  /**
   * Returns the delay before a pool is synced after someone else deleted one of its slices (never
   * longer than the sync delay). Short, so a kubelet wiping the node's slices on restart sees them
   * back within about a second, yet long enough to batch the deletions of one wipe.
   *
   * @return the recreate delay (default 1 s)
   */
  public Duration recreateDelay() {
    return recreateDelay;
  }

  /**
   * Returns how long start waits for the informer's first list (it retries failed lists with
   * backoff in the meantime; only Not Found moves on to an older API version).
   *
   * @return the start timeout (default 1 min)
   */
  public Duration startTimeout() {
    return startTimeout;
  }

  /**
   * Returns the handler of background errors.
   *
   * @return the handler (default: log at ERROR)
   */
  public ErrorHandler errorHandler() {
    return errorHandler;
  }

  /**
   * Returns the single pool this controller reconciles, if it is one of several controllers that
   * publish node-less pools of the same driver.
   *
   * @return the pool name, or null
   */
  public String reconcilePoolWithName() {
    return reconcilePoolWithName;
  }

  /**
   * Returns the registry for the controller's metrics.
   *
   * @return the registry, or null for no metrics
   */
  public MeterRegistry meterRegistry() {
    return meterRegistry;
  }

  /**
   * Returns who hears the outcome of every pool sync.
   *
   * @return the listener, or null when failures go to the {@link #errorHandler()}
   */
  public PoolStatusListener poolStatusListener() {
    return poolStatusListener;
  }

  /** Builds {@link ControllerOptions}. Not thread-safe. */
  public static final class Builder {
    private String driverName;
    private KubernetesClient client;
    private Owner owner;
    private DriverResources resources;
    private Duration syncDelay = DEFAULT_SYNC_DELAY;
    private Duration mutationCacheTtl = DEFAULT_MUTATION_CACHE_TTL;
    private Duration recreateDelay = DEFAULT_RECREATE_DELAY;
    private Duration startTimeout = DEFAULT_START_TIMEOUT;
    private ErrorHandler errorHandler = (error, message) -> LOG.error("{}: {}", message,
        error.getMessage(), error);
    private String reconcilePoolWithName;
    private MeterRegistry meterRegistry;
    private PoolStatusListener poolStatusListener;

    private Builder() {}

    /**
     * Sets the DRA driver name.
     *
     * @param driverName e.g. {@code gpu.example.com}: a DNS subdomain of at most 63 bytes, in
     *     lower case, as it is part of the slices' names
     * @return this builder
     */
    public Builder driverName(String driverName) {
      this.driverName = Objects.requireNonNull(driverName, "driverName");
      return this;
    }

    /**
     * Sets the API client (not closed by the controller).
     *
     * @param client the client
     * @return this builder
     */
    public Builder client(KubernetesClient client) {
      this.client = Objects.requireNonNull(client, "client");
      return this;
    }

    /**
     * Sets the owner of the slices.
     *
     * @param owner e.g. {@link Owner#node(String, String)}, or null
     * @return this builder
     */
    public Builder owner(Owner owner) {
      this.owner = owner;
      return this;
    }

    /**
     * Sets the resources published right after start.
     *
     * @param resources the resources, or null
     * @return this builder
     */
    public Builder resources(DriverResources resources) {
      this.resources = resources;
      return this;
    }

    /**
     * Sets the delay between a slice event and the pool sync it triggers.
     *
     * @param syncDelay zero or positive
     * @return this builder
     */
    public Builder syncDelay(Duration syncDelay) {
      this.syncDelay = OptionChecks.nonNegative(syncDelay, "syncDelay");
      return this;
    }

    /**
     * Sets how long written slices override the informer's view.
     *
     * @param ttl zero or positive
     * @return this builder
     */
    public Builder mutationCacheTtl(Duration ttl) {
      this.mutationCacheTtl = OptionChecks.nonNegative(ttl, "mutationCacheTtl");
      return this;
    }

    /**
     * Sets the delay before recreating slices someone else deleted.
     *
     * @param delay zero or positive
     * @return this builder
     */
    public Builder recreateDelay(Duration delay) {
      this.recreateDelay = OptionChecks.nonNegative(delay, "recreateDelay");
      return this;
    }

    /**
     * Sets how long start waits for the first list.
     *
     * @param timeout positive
     * @return this builder
     */
    public Builder startTimeout(Duration timeout) {
      this.startTimeout = OptionChecks.positive(timeout, "startTimeout");
      return this;
    }

    /**
     * Sets the handler of background errors.
     *
     * @param errorHandler the handler
     * @return this builder
     */
    public Builder errorHandler(ErrorHandler errorHandler) {
      this.errorHandler = Objects.requireNonNull(errorHandler, "errorHandler");
      return this;
    }

    /**
     * Restricts the controller to one pool whose slices carry no {@code spec.nodeName}, for
     * devices that are not tied to this node: the pool must select nodes itself (node selector,
     * all nodes, or per-device node selection).
     *
     * @param poolName the pool, or null for all pools of the driver on this node
     * @return this builder
     */
    public Builder reconcilePoolWithName(String poolName) {
      this.reconcilePoolWithName = poolName == null || poolName.isEmpty() ? null : poolName;
      return this;
    }

    /**
     * Sets the registry for metrics (writes, syncs, sync errors).
     *
     * @param registry the registry, or null for none
     * @return this builder
     */
    public Builder meterRegistry(MeterRegistry registry) {
      this.meterRegistry = registry;
      return this;
    }

    /**
     * Sets who hears the outcome of every pool sync: a pool's published slices and devices, or
     * why it failed. Failed syncs and refused pools then go to the listener instead of the
     * {@link #errorHandler error handler}.
     *
     * @param listener the listener, or null for none (the default)
     * @return this builder
     */
    public Builder poolStatusListener(PoolStatusListener listener) {
      this.poolStatusListener = listener;
      return this;
    }

    /**
     * Builds the options.
     *
     * @return the options
     */
    public ControllerOptions build() {
      return new ControllerOptions(this);
    }

    /**
     * Starts a controller with these options: checks them, starts the informer and waits up to
     * {@link #startTimeout} for its first list, publishes the initial resources and starts the
     * worker.
     *
     * @return the running controller
     * @throws ControllerStartException {@code create controller: <cause>}, e.g. {@code create
     *     controller: DRA driver name is empty} or {@code create controller: sync ResourceSlice
     *     informer: <cause>}
     */
    public ResourceSliceController start() {
      return ResourceSliceController.start(build());
    }

  }
}
