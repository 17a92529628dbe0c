package io.github.dra4j.kubeletplugin.internal.publish;

import io.github.dra4j.kubeletplugin.internal.logging.ErrorLog;
import io.github.dra4j.kubeletplugin.internal.logging.LogText;
import io.github.dra4j.resourceslice.PoolStatus;
import io.github.dra4j.resourceslice.PoolStatusListener;
import io.github.dra4j.resourceslice.PoolValidationException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether a plugin's devices are published, from every pool sync's outcome, and what follows from
 * a change: readiness ({@link #ready()}: not before the first successful sync of every pool the
 * driver publishes, and not while a pool's syncs fail), one report of the reason when a pool
 * starts failing (to the driver's error handler, which logs it in one line by default, and as a
 * {@code Warning} Event {@value #FAILED} on the Node), and one INFO line (and a {@code Normal}
 * Event {@value #RECOVERED}) when it is published again. Retries of a failing pool change
 * nothing, so they report nothing. Owned by one plugin; thread-safe (guarded by its monitor;
 * reports and Events are made outside it).
 */
public final class PublishingState implements PoolStatusListener {

  /** The reason of the Event that says a pool is not published. */
  public static final String FAILED = "ResourceSlicePublishFailed";

  /** The reason of the Event that says a pool that failed is published again. */
  public static final String RECOVERED = "ResourceSlicePublished";

  private static final Logger LOG = LoggerFactory.getLogger(PublishingState.class);

  /** Where a change to failing is reported: the error, and what failed. */
  public interface Reports {
    /**
     * Reports a pool or the controller that started failing.
     *
     * @param error why, the original error
     * @param message what is not published and what happens next
     */
    void failing(Throwable error, String message);
  }

  private final String driverName;
  private final Reports reports;
  private final NodeEvents events;
  private final Map<String, PoolStatus> pools = new HashMap<>();
  private final List<Runnable> whenPublished = new ArrayList<>();
  /** The pools the driver asked for; null before its first publish. */
  private Set<String> desired;
  private Throwable startFailure;
  private boolean published;

  /**
   * Creates the state of a plugin that has not published yet.
   *
   * @param driverName the driver, for log lines
   * @param reports where changes to failing go
   * @param events where Events go, or null for none
   */
  public PublishingState(String driverName, Reports reports, NodeEvents events) {
    this.driverName = driverName;
    this.reports = reports;
    this.events = events;
  }

  /**
   * The driver asked for these pools.
   *
   * @param poolNames every pool of its resources
   */
  public void publishing(Set<String> poolNames) {
    List<Runnable> run;
    synchronized (this) {
      desired = Set.copyOf(poolNames);
      run = becamePublished();
    }
    run.forEach(PublishingState::runGuarded);
  }

  /** The actions to run now if every pool is published the first time; under the monitor. */
  private List<Runnable> becamePublished() {
    if (published || !isReady()) {
      return List.of();
    }
    published = true;
    List<Runnable> run = List.copyOf(whenPublished);
    whenPublished.clear();
    return run;
  }

  /**
   * The ResourceSlice controller could not start: nothing is published.
   *
   * @param error why
   */
  public void startFailed(Throwable error) {
    synchronized (this) {
      boolean change = startFailure == null;
      startFailure = error;
      if (!change) {
        return;
      }
    }
    String message = "ResourceSlices of driver " + driverName + " are not published: the"
        + " ResourceSlice controller cannot start; readiness is NOT_SERVING";
    if (events != null) {
      events.post(true, FAILED, message + ": " + ErrorLog.causes(error));
    }
  }

  /** The ResourceSlice controller started. */
  public synchronized void started() {
    startFailure = null;
  }

  @Override
  public void poolStatus(PoolStatus status) {
    PoolStatus before;
    List<Runnable> run;
    synchronized (this) {
      before = status.desired() ? pools.put(status.pool(), status) : pools.remove(status.pool());
      run = becamePublished();
    }
    if (!status.desired()) {
      return;
    }
    String pool = "ResourceSlice pool " + LogText.quote(status.pool()) + " of driver "
        + driverName;
    if (!status.published()) {
      Throwable error = status.error().orElseThrow();
      if (before == null || before.published() || newRefusal(before, error)) {
        boolean refused = error instanceof PoolValidationException;
        String message = pool + (refused ? " is refused" : " is not published") + " (the API"
            + " server holds " + status.devices() + " of its devices; "
            + (refused ? "publish it again once fixed" : "retried with backoff")
            + "; readiness is NOT_SERVING)";
        reports.failing(error, message);
        if (events != null) {
          events.post(true, FAILED, message + ": " + ErrorLog.causes(error));
        }
      }
    } else if (before == null) {
      LOG.info("{} published: {}", pool, counts(status));
    } else if (!before.published()) {
      String message = pool + " is published again: " + counts(status);
      LOG.info("{}", message);
      if (events != null) {
        events.post(false, RECOVERED, message);
      }
    }
    run.forEach(PublishingState::runGuarded);
  }

  /** A refused pool refused for another reason is a change worth a report. */
  private static boolean newRefusal(PoolStatus before, Throwable error) {
    return error instanceof PoolValidationException
        && !Objects.equals(before.error().map(Throwable::getMessage).orElse(null),
            error.getMessage());
  }

  private static String counts(PoolStatus status) {
    return status.devices() + (status.devices() == 1 ? " device" : " devices") + " in "
        + status.slices() + (status.slices() == 1 ? " ResourceSlice" : " ResourceSlices");
  }

  /**
   * Whether every pool the driver asked for is published: what the readiness probe answers.
   *
   * @return false before the driver's first publish, before each of its pools has synced, and
   *     while any of them fails or the controller cannot start
   */
  public synchronized boolean ready() {
    return isReady();
  }

  private boolean isReady() {
    if (desired == null || startFailure != null) {
      return false;
    }
    for (String pool : desired) {
      PoolStatus status = pools.get(pool);
      if (status == null || !status.published()) {
        return false;
      }
    }
    return true;
  }

  /**
   * Runs an action once every pool the driver asked for has been published the first time: now,
   * on the caller's thread, if that has happened, else on the thread that sees it happen.
   *
   * @param action a short action, such as a log line
   */
  public void whenPublished(Runnable action) {
    synchronized (this) {
      if (!published) {
        whenPublished.add(action);
        return;
      }
    }
    runGuarded(action);
  }

  private static void runGuarded(Runnable action) {
    try {
      action.run();
    } catch (RuntimeException e) {
      LOG.error("An action run once the devices were published failed", e);
    }
  }
}
