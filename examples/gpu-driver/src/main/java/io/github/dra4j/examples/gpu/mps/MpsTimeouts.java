package io.github.dra4j.examples.gpu.mps;

import java.time.Duration;
import java.util.Objects;

/**
 * How long the driver waits for MPS control daemons ({@code MPS_START_TIMEOUT_SECONDS}, {@code
 * MPS_STOP_TIMEOUT_SECONDS}).
 *
 * @param start how long a daemon may take to start and answer its first command; a claim whose
 *     daemon is not ready by then fails, and the kubelet retries it
 * @param stop how long a daemon may take to quit before it is killed
 */
public record MpsTimeouts(Duration start, Duration stop) {

  /** 30 s to start, 5 s to stop. */
  public static final MpsTimeouts DEFAULT = new MpsTimeouts(Duration.ofSeconds(30),
      Duration.ofSeconds(5));

  /**
   * Checks the fields.
   *
   * @param start positive
   * @param stop positive
   */
  public MpsTimeouts {
    requirePositive(start, "start");
    requirePositive(stop, "stop");
  }

  private static void requirePositive(Duration duration, String name) {
    Objects.requireNonNull(duration, name);
    if (duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException("MPS " + name + " timeout must be positive, got "
          + duration);
    }
  }
}
