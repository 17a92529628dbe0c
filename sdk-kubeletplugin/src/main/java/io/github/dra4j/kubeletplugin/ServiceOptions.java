package io.github.dra4j.kubeletplugin;

import io.github.dra4j.core.option.OptionChecks;

/**
 * Which gRPC services the plugin serves and advertises to the kubelet, and how many claims one
 * call may carry. Set with {@link KubeletPluginBuilder#services}.
 *
 * @param registrationService whether to start the registration server; default true, off for
 *     tests
 * @param draService whether to start the DRA server; default true, off for a plugin that only
 *     publishes slices
 * @param nodeV1 whether to serve and advertise DRA v1 (kubelet 1.34+); default true
 * @param nodeV1beta1 whether to serve and advertise DRA v1beta1 (kubelet 1.32+); default true
 * @param maxClaimsPerCall the largest number of claims accepted in one call (default 1024); larger
 *     requests fail with INVALID_ARGUMENT before any claim is read
 */
public record ServiceOptions(
    boolean registrationService,
    boolean draService,
    boolean nodeV1,
    boolean nodeV1beta1,
    int maxClaimsPerCall) {

  /** The defaults. */
  public static final ServiceOptions DEFAULTS = new ServiceOptions(true, true, true, true, 1024);

  /**
   * Checks the options.
   *
   * @param registrationService whether the registration server starts
   * @param draService whether the DRA server starts
   * @param nodeV1 whether DRA v1 is served
   * @param nodeV1beta1 whether DRA v1beta1 is served
   * @param maxClaimsPerCall the most claims in one call
   * @throws IllegalArgumentException if {@code maxClaimsPerCall} is below 1
   */
  public ServiceOptions {
    OptionChecks.atLeast(maxClaimsPerCall, 1, "maxClaimsPerCall");
  }

  /**
   * These options with the registration server on or off.
   *
   * @param on true to start it
   * @return the new options
   */
  public ServiceOptions withRegistrationService(boolean on) {
    return new ServiceOptions(on, draService, nodeV1, nodeV1beta1, maxClaimsPerCall);
  }

  /**
   * These options with the DRA server on or off.
   *
   * @param on true to start it
   * @return the new options
   */
  public ServiceOptions withDraService(boolean on) {
    return new ServiceOptions(registrationService, on, nodeV1, nodeV1beta1, maxClaimsPerCall);
  }

  /**
   * These options with DRA v1 served or not.
   *
   * @param on true to serve it
   * @return the new options
   */
  public ServiceOptions withNodeV1(boolean on) {
    return new ServiceOptions(registrationService, draService, on, nodeV1beta1, maxClaimsPerCall);
  }

  /**
   * These options with DRA v1beta1 served or not.
   *
   * @param on true to serve it
   * @return the new options
   */
  public ServiceOptions withNodeV1beta1(boolean on) {
    return new ServiceOptions(registrationService, draService, nodeV1, on, maxClaimsPerCall);
  }

  /**
   * These options with another largest number of claims per call.
   *
   * @param max at least 1
   * @return the new options
   */
  public ServiceOptions withMaxClaimsPerCall(int max) {
    return new ServiceOptions(registrationService, draService, nodeV1, nodeV1beta1, max);
  }
}
