package io.github.dra4j.testing.kubelet;

import java.time.Instant;
import java.util.Objects;

/**
 * One deletion of ResourceSlices the fake kubelet performed (or tried to).
 *
 * @param at when the DeleteCollection request was sent
 * @param reason why the kubelet wiped
 * @param driver the driver whose slices were deleted, or null when all of the node's slices were
 * @param fieldSelector the field selector of the DeleteCollection request, for example {@code
 *     spec.nodeName=node-1,spec.driver=gpu.example.com}
 * @param error null if the API server accepted the request, else why it failed
 */
public record SliceWipe(
    Instant at, Reason reason, String driver, String fieldSelector, String error) {

  /**
   * Rejects missing time, reason and selector.
   *
   * @param at when the DeleteCollection request was sent
   * @param reason why the kubelet wiped
   * @param driver the driver, or null when all of the node's slices were deleted
   * @param fieldSelector the field selector of the DeleteCollection request
   * @param error null if the API server accepted the request, else why it failed
   */
  public SliceWipe {
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(fieldSelector, "fieldSelector");
  }

  /** Why the kubelet deleted slices. */
  public enum Reason {
    /** The kubelet (re)started: every slice of the node goes, immediately. */
    KUBELET_START,
    /** No instance of a driver was connected for the whole wiping delay. */
    DRIVER_UNUSABLE
  }

  /**
   * Whether the API server accepted the deletion.
   *
   * @return true if {@link #error()} is null
   */
  public boolean isSuccess() {
    return error == null;
  }
}
