package io.github.dra4j.testing.kubelet;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.dra4j.core.option.OptionChecks;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * Configures and starts a {@link FakeKubelet}. Defaults are the real kubelet's (Kubernetes 1.36
 * and later); tests usually shorten the wiping delay.
 *
 * <p>Not thread-safe: configure from one thread, then call {@link #start()}.
 */
public final class FakeKubeletBuilder {

  private Path registryDirectory;
  private String nodeName;
  private KubernetesClient kubeClient;
  private Duration dialTimeout = Duration.ofSeconds(10);
  private Duration getInfoTimeout = KubeletClient.GET_INFO_TIMEOUT;
  private Duration notifyTimeout = KubeletClient.NOTIFY_TIMEOUT;
  private Duration callTimeout = KubeletClient.NODE_CALL_TIMEOUT;
  private Duration backoffInitial = Duration.ofMillis(500);
  private Duration backoffMax = Duration.ofMinutes(2);
  private Duration wipingDelay = Duration.ofSeconds(30);
  private boolean wipeOnStart = true;
  private boolean healthStreams = true;
  private Duration healthRetryPeriod = Duration.ofSeconds(5);
  private Duration healthTimeout = Duration.ofSeconds(30);
  private int callLogCapacity = 10_000;
  private Clock clock = Clock.systemUTC();

  FakeKubeletBuilder() {}

  /**
   * The plugin registry directory to watch, with its subdirectories (mandatory). Created if
   * missing. The real kubelet's is {@code /var/lib/kubelet/plugins_registry}.
   *
   * @param directory the directory plugins put their registration sockets in
   * @return this builder
   */
  public FakeKubeletBuilder registryDirectory(Path directory) {
    this.registryDirectory = Objects.requireNonNull(directory, "registryDirectory");
    return this;
  }

  /**
   * The name of the simulated node (mandatory): whose ResourceSlices get wiped.
   *
   * @param name the Node name
   * @return this builder
   */
  public FakeKubeletBuilder nodeName(String name) {
    Objects.requireNonNull(name, "nodeName");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("nodeName must not be empty");
    }
    this.nodeName = name;
    return this;
  }

  /**
   * The API client the kubelet deletes ResourceSlices with. Borrowed: the kubelet does not close
   * it. Without one, no slices are ever wiped.
   *
   * @param client a fabric8 client, for example of an in-memory API server
   * @return this builder
   */
  public FakeKubeletBuilder kubeClient(KubernetesClient client) {
    this.kubeClient = Objects.requireNonNull(client, "kubeClient");
    return this;
  }

  /**
   * How long the kubelet waits to connect to a registration socket before the attempt fails.
   *
   * @param timeout default 10 s
   * @return this builder
   */
  public FakeKubeletBuilder dialTimeout(Duration timeout) {
    this.dialTimeout = OptionChecks.positive(timeout, "dialTimeout");
    return this;
  }

  /**
   * Deadline of {@code GetInfo}.
   *
   * @param timeout default 1 s
   * @return this builder
   */
  public FakeKubeletBuilder getInfoTimeout(Duration timeout) {
    this.getInfoTimeout = OptionChecks.positive(timeout, "getInfoTimeout");
    return this;
  }

  /**
   * Deadline of {@code NotifyRegistrationStatus}.
   *
   * @param timeout default 5 s
   * @return this builder
   */
  public FakeKubeletBuilder notifyTimeout(Duration timeout) {
    this.notifyTimeout = OptionChecks.positive(timeout, "notifyTimeout");
    return this;
  }

  /**
   * Deadline of {@code NodePrepareResources} and {@code NodeUnprepareResources}.
   *
   * @param timeout default 45 s
   * @return this builder
   */
  public FakeKubeletBuilder callTimeout(Duration timeout) {
    this.callTimeout = OptionChecks.positive(timeout, "callTimeout");
    return this;
  }

  /**
   * Backoff between failed registration attempts of one socket: {@code initial}, then doubling,
   * at most {@code max}.
   *
   * @param initial default 500 ms
   * @param max default 2 minutes; not less than {@code initial}
   * @return this builder
   */
  public FakeKubeletBuilder registrationBackoff(Duration initial, Duration max) {
    OptionChecks.positive(initial, "registrationBackoff initial");
    OptionChecks.positive(max, "registrationBackoff max");
    if (max.compareTo(initial) < 0) {
      throw new IllegalArgumentException(
          "registrationBackoff max " + max + " is less than initial " + initial);
    }
    this.backoffInitial = initial;
    this.backoffMax = max;
    return this;
  }

  /**
   * How long a driver may have no connected instance before its node-local ResourceSlices are
   * deleted.
   *
   * @param delay default 30 s
   * @return this builder
   */
  public FakeKubeletBuilder wipingDelay(Duration delay) {
    this.wipingDelay = OptionChecks.positive(delay, "wipingDelay");
    return this;
  }

  /**
   * Whether {@link #start()} deletes all ResourceSlices of the node, as a starting kubelet does
   * ({@link FakeKubelet#restart()} always does).
   *
   * @param on default true
   * @return this builder
   */
  public FakeKubeletBuilder wipeOnStart(boolean on) {
    this.wipeOnStart = on;
    return this;
  }

  /**
   * Whether the kubelet follows the health streams of plugins that advertise one (the kubelet's
   * {@code ResourceHealthStatus} feature gate).
   *
   * @param on default true
   * @return this builder
   */
  public FakeKubeletBuilder healthStreams(boolean on) {
    this.healthStreams = on;
    return this;
  }

  /**
   * How long the kubelet waits before reopening a health stream that failed or ended (not after
   * UNIMPLEMENTED, which is final).
   *
   * @param period default 5 s
   * @return this builder
   */
  public FakeKubeletBuilder healthRetryPeriod(Duration period) {
    this.healthRetryPeriod = OptionChecks.positive(period, "healthRetryPeriod");
    return this;
  }

  /**
   * After how long without a report a device's health shows as unknown, unless the plugin sets
   * its own per-device timeout.
   *
   * @param timeout default 30 s
   * @return this builder
   */
  public FakeKubeletBuilder healthTimeout(Duration timeout) {
    this.healthTimeout = OptionChecks.positive(timeout, "healthTimeout");
    return this;
  }

  /**
   * How many records the {@link CallLog} keeps; older ones are dropped.
   *
   * @param capacity default 10,000
   * @return this builder
   */
  public FakeKubeletBuilder callLogCapacity(int capacity) {
    this.callLogCapacity = OptionChecks.atLeast(capacity, 1, "callLogCapacity");
    return this;
  }

  /**
   * The clock for timestamps (call log, registrations, health). Timers always use real time.
   *
   * @param clock default the system clock (UTC)
   * @return this builder
   */
  public FakeKubeletBuilder clock(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
    return this;
  }

  /**
   * Starts the kubelet: wipes the node's slices (unless turned off), then discovers the sockets
   * already in the registry and watches for more.
   *
   * @return the running kubelet
   * @throws IllegalStateException if the registry directory or node name is missing, or the epoll
   *     transport is unavailable
   * @throws java.io.UncheckedIOException if the registry directory cannot be created or watched
   */
  public FakeKubelet start() {
    if (registryDirectory == null) {
      throw new IllegalStateException("registryDirectory must be set");
    }
    if (nodeName == null) {
      throw new IllegalStateException("nodeName must be set");
    }
    return FakeKubelet.start(new KubeletSettings(
        registryDirectory.toAbsolutePath().normalize(), nodeName, kubeClient, dialTimeout,
        getInfoTimeout, notifyTimeout, callTimeout,
        new Backoff(backoffInitial, backoffMax), wipingDelay, wipeOnStart, healthStreams,
        healthRetryPeriod, healthTimeout, callLogCapacity, clock));
  }

}
