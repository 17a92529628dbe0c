package io.github.dra4j.kubeletplugin.internal.observability;

import io.github.dra4j.resourceclaim.config.ConfigException;
import io.grpc.Status;
import io.grpc.StatusException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeoutException;

/**
 * Why a claim the kubelet asked for failed: the {@code reason} tag of the claim counters, a fixed
 * set so that a failure's free text never becomes a label. Derived from what the plugin already
 * tells apart: its checks of the kubelet's request, the claim read from the API server, the
 * status a whole call fails with, and the class of the driver's exception.
 */
public enum ClaimFailure {
  /** The kubelet's request failed the plugin's checks (a malformed claim, a repeated UID, too
   * many claims in one call). */
  INVALID_REQUEST("invalid_request"),
  /** The claim could not be read, or is not the allocated object the kubelet named (not
   * allocated, replaced, answered under another name). */
  CLAIM_UNAVAILABLE("claim_unavailable"),
  /** Too many calls wait for the API server already; the kubelet tries again. */
  OVERLOADED("overloaded"),
  /** The driver refused the claim's device configuration ({@link ConfigException}). */
  INVALID_CONFIG("invalid_config"),
  /** The driver timed out ({@link TimeoutException}). */
  TIMEOUT("timeout"),
  /** The call was interrupted or cancelled. */
  CANCELLED("cancelled"),
  /** The driver failed the claim, threw, answered nothing for it or answered devices that fail
   * the checks. */
  DRIVER_ERROR("driver_error"),
  /** A failure of the plugin itself, a bug. */
  INTERNAL("internal");

  /** The tag value of a success. */
  public static final String NONE = "none";

  private final String tag;

  ClaimFailure(String tag) {
    this.tag = tag;
  }

  /**
   * The tag value.
   *
   * @return snake_case, such as {@code invalid_config}
   */
  public String tag() {
    return tag;
  }

  /**
   * Why a claim the driver failed with this exception failed.
   *
   * @param cause the driver's exception behind the failure, or null when it gave none
   * @return {@link #INVALID_CONFIG}, {@link #TIMEOUT}, {@link #CANCELLED} or {@link
   *     #DRIVER_ERROR}
   */
  public static ClaimFailure ofCause(Throwable cause) {
    for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof ConfigException) {
        return INVALID_CONFIG;
      }
      if (t instanceof TimeoutException) {
        return TIMEOUT;
      }
      if (t instanceof InterruptedException || t instanceof CancellationException) {
        return CANCELLED;
      }
    }
    return DRIVER_ERROR;
  }

  /**
   * Why the claims of a call that failed as a whole failed.
   *
   * @param failure what the call threw
   * @return the reason of its status, or {@link #INTERNAL} for an unexpected exception
   */
  public static ClaimFailure ofCall(Exception failure) {
    if (!(failure instanceof StatusException statusException)) {
      return INTERNAL;
    }
    Status status = statusException.getStatus();
    return switch (status.getCode()) {
      case INVALID_ARGUMENT -> INVALID_REQUEST;
      case RESOURCE_EXHAUSTED -> OVERLOADED;
      case DEADLINE_EXCEEDED -> TIMEOUT;
      case CANCELLED -> CANCELLED;
      default -> status.getCause() == null ? DRIVER_ERROR : ofCause(status.getCause());
    };
  }
}
