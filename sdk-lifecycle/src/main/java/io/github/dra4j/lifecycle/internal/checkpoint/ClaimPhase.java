package io.github.dra4j.lifecycle.internal.checkpoint;

import java.util.List;
import java.util.Optional;

/**
 * How far the driver got with a claim, as the checkpoint records it.
 *
 * <p>{@link #PREPARE_STARTED} is written before the driver touches anything for the claim, so
 * that after a crash the lifecycle knows it may have to roll back the devices in the entry's
 * allocation. {@link #PREPARE_COMPLETED} is written once the driver answered, together with
 * what was answered to the kubelet. {@link #UNPREPARE_STARTED} is written before the driver
 * undoes a completed claim, so that after a crash or a failed write the claim is never answered
 * as prepared again from the record: its undo is finished first.
 */
public enum ClaimPhase {
  /** Preparing began; devices may be partly set up. */
  PREPARE_STARTED("PrepareStarted"),
  /** Preparing finished and the kubelet got the devices. */
  PREPARE_COMPLETED("PrepareCompleted"),
  /**
   * Unpreparing began; devices may be partly undone. Written as phase {@code PrepareCompleted}
   * with {@code "unprepareStarted": true}: a release that does not know the member ignores it
   * and takes the claim as prepared, which is what it would itself have recorded at that point
   * (it wrote nothing before the undo), so a downgrade reads the file as before.
   */
  UNPREPARE_STARTED("PrepareCompleted");

  private final String jsonValue;

  ClaimPhase(String jsonValue) {
    this.jsonValue = jsonValue;
  }

  /**
   * The value of the {@code phase} member in the checkpoint file.
   *
   * @return {@code PrepareStarted} or {@code PrepareCompleted} (also for {@link
   *     #UNPREPARE_STARTED}, which a member of its own marks)
   */
  public String jsonValue() {
    return jsonValue;
  }

  /**
   * The phase a value of the {@code phase} member stands for.
   *
   * @param value the value as written, case-sensitive
   * @return {@link #PREPARE_STARTED} or {@link #PREPARE_COMPLETED}, or empty if no phase has
   *     this value
   */
  public static Optional<ClaimPhase> fromJson(String value) {
    for (ClaimPhase phase : List.of(PREPARE_STARTED, PREPARE_COMPLETED)) {
      if (phase.jsonValue.equals(value)) {
        return Optional.of(phase);
      }
    }
    return Optional.empty();
  }
}
