package io.github.dra4j.kubeletplugin;

import io.github.dra4j.core.option.OptionChecks;
import java.time.Duration;
import java.util.Objects;

/**
 * How a plugin ends: on SIGTERM or SIGINT, and after a fatal background error. Set with {@link
 * KubeletPluginBuilder#shutdown}.
 *
 * @param closeOnShutdown whether a JVM shutdown hook closes the plugin on SIGTERM or SIGINT,
 *     removing its sockets so the kubelet deregisters it at once. Default true
 * @param gracePeriod how long the shutdown hook waits, after closing the plugin, for the threads
 *     that were blocked in {@link KubeletPlugin#awaitTermination()} to finish what follows it,
 *     before the JVM exits. Keep it below the pod's termination grace period (Kubernetes' default:
 *     30 s). Default 10 s
 * @param fatalErrorPolicy what the plugin does after a fatal background error (a socket deleted
 *     or replaced, an event loop thread that ended, a JVM error such as {@link OutOfMemoryError}
 *     while serving) was reported to {@link DraDriver#handleError}: report only, close the plugin,
 *     or close it and exit the JVM with status 1. Default {@link FatalErrorPolicy#CLOSE}
 */
public record ShutdownOptions(
    boolean closeOnShutdown, Duration gracePeriod, FatalErrorPolicy fatalErrorPolicy) {

  /** The defaults: the hook on, 10 s, {@link FatalErrorPolicy#CLOSE}. */
  public static final ShutdownOptions DEFAULTS = new ShutdownOptions(true, Duration.ofSeconds(10),
      FatalErrorPolicy.CLOSE);

  /**
   * Checks the options.
   *
   * @param closeOnShutdown whether the shutdown hook closes the plugin
   * @param gracePeriod how long the hook waits for the released threads
   * @param fatalErrorPolicy what follows a fatal background error
   * @throws IllegalArgumentException if {@code gracePeriod} is not positive
   * @throws NullPointerException if {@code fatalErrorPolicy} is null
   */
  public ShutdownOptions {
    OptionChecks.positive(gracePeriod, "shutdownGracePeriod");
    Objects.requireNonNull(fatalErrorPolicy, "fatalErrorPolicy");
  }

  /**
   * These options with the shutdown hook on or off.
   *
   * @param on true to install the hook
   * @return the new options
   */
  public ShutdownOptions withCloseOnShutdown(boolean on) {
    return new ShutdownOptions(on, gracePeriod, fatalErrorPolicy);
  }

  /**
   * These options with another grace period.
   *
   * @param period a positive duration
   * @return the new options
   */
  public ShutdownOptions withGracePeriod(Duration period) {
    return new ShutdownOptions(closeOnShutdown, period, fatalErrorPolicy);
  }

  /**
   * These options with another fatal error policy.
   *
   * @param policy the policy
   * @return the new options
   */
  public ShutdownOptions withFatalErrorPolicy(FatalErrorPolicy policy) {
    return new ShutdownOptions(closeOnShutdown, gracePeriod, policy);
  }
}
