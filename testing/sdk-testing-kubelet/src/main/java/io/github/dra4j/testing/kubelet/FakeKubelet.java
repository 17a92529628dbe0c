package io.github.dra4j.testing.kubelet;

import io.github.dra4j.core.thread.DaemonThreads;
import io.github.dra4j.resourceclaim.ClaimReference;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A kubelet for tests: behaves toward DRA kubelet plugins like the real one (Kubernetes 1.36+)
 * over real Unix sockets, without a node.
 *
 * <ul>
 *   <li>Watches a registry directory and its subdirectories for registration sockets and
 *       registers each plugin: {@code GetInfo} (1 s), the kubelet's validation and error texts,
 *       {@code NotifyRegistrationStatus} (5 s), retrying failures with backoff. A removed socket
 *       deregisters that instance only.
 *   <li>Keeps all instances of a driver in registration order and sends {@link #prepare} and
 *       {@link #unprepare} to the newest connected one (else the newest), over the DRA service
 *       chosen at registration (first of the plugin's list the kubelet knows: v1 or v1beta1), with
 *       a 45 s deadline, judging answers as the kubelet does.
 *   <li>Follows device health streams (v1 preferred, else v1alpha1) when advertised.
 *   <li>Deletes ResourceSlices like the kubelet: all of the node's at start and on {@link
 *       #restart()}, a driver's node-local ones after the wiping delay (30 s) without a connected
 *       instance.
 *   <li>Records every call in its {@link CallLog}.
 * </ul>
 *
 * <pre>{@code
 * try (FakeKubelet kubelet = FakeKubelet.builder()
 *     .registryDirectory(tmp.resolve("registry"))
 *     .nodeName("node-1")
 *     .kubeClient(apiServer.client())
 *     .start()) {
 *   kubelet.awaitRegistered(plugin.registrationSocket(), Duration.ofSeconds(30));
 *   PrepareOutcome outcome = kubelet.prepare("gpu.example.com", claimReference);
 * }
 * }</pre>
 *
 * <p>Thread-safe. The kubelet owns its threads (a watcher thread, timers, Netty event loops and
 * gRPC callback threads, all daemons), its channels and its call log; the Kubernetes client is
 * borrowed. {@link #close()} stops everything without telling plugins, as a stopping kubelet does.
 */
public final class FakeKubelet implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(FakeKubelet.class);

  private final KubeletSettings settings;
  private final CallLog log;
  private final UnixChannels channels;
  private final ScheduledThreadPoolExecutor timers;
  private final ExecutorService workers;
  private final SliceWiper wiper;
  private final HealthMonitor health;
  private final DriverInstances instances;
  private final SocketRegistrations registrations;
  private final NodeCalls nodeCalls;
  private final Object lifecycle = new Object();
  private RegistryWatcher watcher; // guarded by lifecycle
  private boolean closed; // guarded by lifecycle

  private FakeKubelet(KubeletSettings settings) {
    this.settings = settings;
    this.log = new CallLog(settings.callLogCapacity(), settings.clock());
    this.channels = new UnixChannels("dra4j-fake-kubelet");
    this.timers = new ScheduledThreadPoolExecutor(4, new DaemonThreads("dra4j-fake-kubelet"));
    timers.setRemoveOnCancelPolicy(true);
    this.workers = Executors.newCachedThreadPool(new DaemonThreads("dra4j-fake-kubelet-reg"));
    this.wiper = new SliceWiper(settings.kubeClient(), settings.nodeName(),
        settings.wipingDelay(), timers, settings.clock());
    this.health = new HealthMonitor(settings.healthStreams(), settings.healthRetryPeriod(),
        settings.healthTimeout(), timers, log, settings.clock());
    this.instances = new DriverInstances(channels, wiper, health, settings.clock());
    RecordedCalls calls = new RecordedCalls(log);
    this.registrations = new SocketRegistrations(
        new RegistrationContext(settings, channels, calls, instances, timers, workers));
    this.nodeCalls = new NodeCalls(calls, settings.callTimeout());
  }

  /**
   * Starts configuring a fake kubelet.
   *
   * @return a builder; finish with {@link FakeKubeletBuilder#start()}
   */
  public static FakeKubeletBuilder builder() {
    return new FakeKubeletBuilder();
  }

  static FakeKubelet start(KubeletSettings settings) {
    FakeKubelet kubelet = new FakeKubelet(settings);
    try {
      synchronized (kubelet.lifecycle) {
        if (settings.wipeOnStart()) {
          kubelet.wiper.wipeNode();
        }
        kubelet.watcher = kubelet.watch();
      }
      LOG.info("Fake kubelet of node {} watching {}", settings.nodeName(),
          settings.registryDirectory());
      return kubelet;
    } catch (RuntimeException | Error e) {
      kubelet.close();
      throw e;
    }
  }

  private RegistryWatcher watch() {
    try {
      return RegistryWatcher.start(settings.registryDirectory(), registrations);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot watch plugin registry directory " + settings.registryDirectory(), e);
    }
  }

  /**
   * The watched registry directory.
   *
   * @return its absolute path
   */
  public Path registryDirectory() {
    return settings.registryDirectory();
  }

  /**
   * The simulated node.
   *
   * @return the node name
   */
  public String nodeName() {
    return settings.nodeName();
  }

  /**
   * All registered plugin instances, grouped by driver, each driver's in registration order.
   *
   * @return snapshots
   */
  public List<RegisteredPlugin> plugins() {
    return instances.all();
  }

  /**
   * The registered instances of one driver, oldest first.
   *
   * @param driver the driver name
   * @return snapshots, empty if the driver is not registered
   */
  public List<RegisteredPlugin> plugins(String driver) {
    return instances.all().stream().filter(p -> p.driver().equals(driver)).toList();
  }

  /**
   * The instance a call for the driver would go to now: the newest connected, else the newest.
   *
   * @param driver the driver name
   * @return its snapshot, or empty if the driver is not registered
   */
  public Optional<RegisteredPlugin> chosenPlugin(String driver) {
    return instances.choose(driver).map(PluginInstance::view);
  }

  /**
   * Waits until the plugin behind a registration socket is registered and its endpoint connected,
   * so calls can reach it.
   *
   * @param registrationSocket the plugin's registration socket
   * @param timeout how long to wait
   * @return the registered instance
   * @throws IllegalStateException if that does not happen in time
   */
  public RegisteredPlugin awaitRegistered(Path registrationSocket, Duration timeout) {
    Path socket = registrationSocket.toAbsolutePath().normalize();
    Predicate<RegisteredPlugin> match = p -> p.registrationSocket().normalize().equals(socket)
        && p.connected();
    return awaitPlugins(all -> all.stream().anyMatch(match), timeout,
        "a connected plugin registered through " + socket)
        .stream().filter(match).findFirst().orElseThrow();
  }

  /**
   * Waits until no instance registered through a registration socket is left.
   *
   * @param registrationSocket the plugin's registration socket
   * @param timeout how long to wait
   * @throws IllegalStateException if that does not happen in time
   */
  public void awaitDeregistered(Path registrationSocket, Duration timeout) {
    Path socket = registrationSocket.toAbsolutePath().normalize();
    awaitPlugins(all -> all.stream().noneMatch(p -> p.registrationSocket().equals(socket)),
        timeout, "deregistration of " + socket);
  }

  /**
   * Waits until the registered instances satisfy a condition; it is checked after every
   * registration, deregistration and connection change.
   *
   * @param condition a condition on {@link #plugins()}
   * @param timeout how long to wait
   * @return the instances that satisfied it
   * @throws IllegalStateException if that does not happen in time (listing what is registered)
   */
  public List<RegisteredPlugin> awaitPlugins(
      Predicate<List<RegisteredPlugin>> condition, Duration timeout) {
    return awaitPlugins(condition, timeout, "the condition on registered plugins");
  }

  private List<RegisteredPlugin> awaitPlugins(
      Predicate<List<RegisteredPlugin>> condition, Duration timeout, String what) {
    return instances.await(Objects.requireNonNull(condition, "condition"),
        Objects.requireNonNull(timeout, "timeout"), what);
  }

  /**
   * Prepares claims as the kubelet does before starting a pod: one {@code NodePrepareResources}
   * call to the chosen instance of the driver.
   *
   * @param driver the driver name (from the claims' allocation results)
   * @param claims namespace, name and UID of each claim
   * @return the answer and the kubelet's verdict
   * @throws IllegalArgumentException if no claims are given
   */
  public PrepareOutcome prepare(String driver, ClaimReference... claims) {
    return prepare(driver, List.of(claims));
  }

  /**
   * Prepares claims; see {@link #prepare(String, ClaimReference...)}.
   *
   * @param driver the driver name
   * @param claims the claims
   * @return the answer and the kubelet's verdict
   * @throws IllegalArgumentException if no claims are given
   */
  public PrepareOutcome prepare(String driver, List<ClaimReference> claims) {
    List<ClaimReference> checked = checkedClaims(driver, claims);
    return instances.choose(driver)
        .map(instance -> nodeCalls.prepare(instance, checked))
        .orElseGet(() -> new PrepareOutcome(null, checked, java.util.Map.of(),
            notRegistered(driver)));
  }

  /**
   * Unprepares claims as the kubelet does after their last pod on the node is gone: one {@code
   * NodeUnprepareResources} call to the chosen instance of the driver.
   *
   * @param driver the driver name
   * @param claims namespace, name and UID of each claim
   * @return the answer and the kubelet's verdict
   * @throws IllegalArgumentException if no claims are given
   */
  public UnprepareOutcome unprepare(String driver, ClaimReference... claims) {
    return unprepare(driver, List.of(claims));
  }

  /**
   * Unprepares claims; see {@link #unprepare(String, ClaimReference...)}.
   *
   * @param driver the driver name
   * @param claims the claims
   * @return the answer and the kubelet's verdict
   * @throws IllegalArgumentException if no claims are given
   */
  public UnprepareOutcome unprepare(String driver, List<ClaimReference> claims) {
    List<ClaimReference> checked = checkedClaims(driver, claims);
    return instances.choose(driver)
        .map(instance -> nodeCalls.unprepare(instance, checked))
        .orElseGet(() -> new UnprepareOutcome(null, checked, java.util.Map.of(),
            notRegistered(driver)));
  }

  private static List<ClaimReference> checkedClaims(String driver, List<ClaimReference> claims) {
    Objects.requireNonNull(driver, "driver");
    List<ClaimReference> copy = List.copyOf(claims);
    if (copy.isEmpty()) {
      throw new IllegalArgumentException(
          "claims must not be empty: the kubelet never calls DRA driver " + driver
              + " without claims");
    }
    return copy;
  }

  private static String notRegistered(String driver) {
    return "DRA driver " + driver + " is not registered";
  }

  /**
   * The device health of a driver as the kubelet shows it in pod status now.
   *
   * @param driver the driver name
   * @return one entry per reported device, ordered by pool and device; empty if the driver
   *     reports no health, no stream is open, or its stream just ended
   */
  public List<ObservedDeviceHealth> deviceHealth(String driver) {
    return health.snapshot(driver);
  }

  /**
   * Every call made on plugins so far (kept across restarts).
   *
   * @return the live, thread-safe log
   */
  public CallLog calls() {
    return log;
  }

  /**
   * The ResourceSlice deletions performed so far, oldest first. A wipe is recorded when its
   * DeleteCollection call has returned, so it can appear a moment after the slices are gone.
   *
   * @return an immutable snapshot; empty without a Kubernetes client
   */
  public List<SliceWipe> wipes() {
    return wiper.history();
  }

  /**
   * Drivers whose slices will be wiped when their delay is over, unless an instance connects.
   *
   * @return driver names, sorted
   */
  public Set<String> pendingWipes() {
    return wiper.pendingDrivers();
  }

  /**
   * Simulates a kubelet restart: forgets all registrations (plugins are not told), drops
   * connections, health and pending wipes, deletes all ResourceSlices of the node at once, then
   * discovers the registration sockets again, which registers the plugins anew.
   *
   * @throws IllegalStateException if the kubelet is closed
   * @throws UncheckedIOException if the registry can no longer be watched
   */
  public void restart() {
    synchronized (lifecycle) {
      if (closed) {
        throw new IllegalStateException("the fake kubelet is closed");
      }
      LOG.info("Restarting fake kubelet of node {}", settings.nodeName());
      stopServing();
      wiper.wipeNode();
      watcher = watch();
    }
  }

  private void stopServing() {
    if (watcher != null) {
      watcher.close();
      watcher = null;
    }
    registrations.forgetAll();
    instances.clear();
    wiper.cancelAll();
    health.clearAll();
  }

  /** Stops watching, drops all registrations and connections, and stops all threads. Idempotent. */
  @Override
  public void close() {
    synchronized (lifecycle) {
      if (closed) {
        return;
      }
      closed = true;
      stopServing();
      wiper.close();
      timers.shutdownNow();
      workers.shutdownNow();
      channels.close();
    }
  }
}
