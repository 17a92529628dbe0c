package io.github.dra4j.kubeletplugin.internal.checkpoint;

import java.util.Optional;

/**
 * How far the driver got with preparing a claim, as the checkpoint records it.
 *
 * <p>{@link #PREPARE_STARTED} is written before the driver touches anything for the claim, so
 * that after a crash the lifecycle knows it may have to roll back the devices in the entry's
 * allocation. {@link #PREPARE_COMPLETED} is written once the driver answered, together with
 * what was answered to the kubelet.
 */
public enum ClaimPhase {
  /** Preparing began; devices may be partly set up. */
  PREPARE_STARTED("PrepareStarted"),
  /** Preparing finished and the kubelet got the devices. */
  PREPARE_COMPLETED("PrepareCompleted");

  private final String jsonValue;

  ClaimPhase(String jsonValue) {
    this.jsonValue = jsonValue;
  }

  /**
   * The value in the checkpoint file.
   *
   * @return {@code PrepareStarted} or {@code PrepareCompleted}
   */
  public String jsonValue() {
    return jsonValue;
  }

  /**
   * The phase a value in the checkpoint file stands for.
   *
   * @param value the value as written, case-sensitive
   * @return the phase, or empty if no phase has this value
   */
  public static Optional<ClaimPhase> fromJson(String value) {
    for (ClaimPhase phase : values()) {
      if (phase.jsonValue.equals(value)) {
        return Optional.of(phase);
      }
    }
    return Optional.empty();
  }
}
