package io.github.dra4j.kubeletplugin.internal.runtime;

import io.github.dra4j.core.metrics.MetricNames;
import io.github.dra4j.core.thread.DaemonThreads;
import io.github.dra4j.kubeletplugin.DraDriver;
import io.github.dra4j.kubeletplugin.FatalErrorPolicy;
import io.github.dra4j.kubeletplugin.RecoverableException;
import io.github.dra4j.kubeletplugin.internal.logging.LogText;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers background errors to {@link DraDriver#handleError} on a thread of their own, one at a
 * time in the order they happened, and then applies the {@link FatalErrorPolicy}.
 *
 * <p>The driver's handler never runs on a thread of the SDK's machinery (the socket watch timer,
 * the ResourceSlice worker), so a handler that closes the plugin does not interrupt or wait for
 * the thread it runs on. Errors raised once the plugin is closing are dropped: closing removes the
 * sockets, and that must not be reported as a second failure. Owned by one plugin; thread-safe.
 */
public final class DriverEvents implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(DriverEvents.class);
  private static final long CLOSE_WAIT_SECONDS = 10;

  private final DraDriver driver;
  private final FatalErrorPolicy policy;
  private final PluginControl plugin;
  private final ExecutorService thread;
  private final Counter recoverable;
  private final Counter fatal;
  private volatile Thread deliveryThread;
  private volatile boolean closing;

  /**
   * What the policy does to the plugin and the process.
   *
   * @param failed records the first fatal error, before the driver hears of it
   * @param close closes the plugin (idempotent)
   * @param exit arranges for the JVM to end with a failure status once the plugin has closed;
   *     run before {@code close}
   */
  public record PluginControl(Consumer<Throwable> failed, Runnable close, Runnable exit) {}

  /**
   * Creates the delivery thread.
   *
   * @param driverName names the thread
   * @param driver receives the errors
   * @param policy what follows a fatal error
   * @param plugin the plugin the policy acts on
   * @param registry where the errors are counted
   */
  public DriverEvents(String driverName, DraDriver driver, FatalErrorPolicy policy,
      PluginControl plugin, MeterRegistry registry) {
    this.recoverable = errors(registry, driverName, "recoverable");
    this.fatal = errors(registry, driverName, "fatal");
    this.driver = driver;
    this.policy = policy;
    this.plugin = plugin;
    this.thread = Executors.newSingleThreadExecutor(
        new DaemonThreads("dra4j-events-" + driverName));
  }

  private static Counter errors(MeterRegistry registry, String driverName, String kind) {
    return Counter.builder(MetricNames.PLUGIN_ERRORS)
        .description("Errors reported to the driver's handleError, by kind")
        .tag(MetricNames.DRIVER_NAME, driverName)
        .tag(MetricNames.KIND, kind)
        .register(registry);
  }

  /**
   * Queues an error for the driver, unless the plugin is closing.
   *
   * @param error what went wrong; fatal unless it is a {@link RecoverableException}
   * @param message where it happened
   */
  public void report(Throwable error, String message) {
    if (closing) {
      LOG.debug("Not reporting \"{}\" while the plugin closes: {}", LogText.text(message),
          LogText.text(error.toString()));
      return;
    }
    (RecoverableException.isRecoverable(error) ? recoverable : fatal).increment();
    try {
      thread.execute(() -> deliver(error, message));
    } catch (RejectedExecutionException closed) {
      LOG.debug("Not reporting \"{}\" after the plugin closed: {}", LogText.text(message),
          LogText.text(error.toString()));
    }
  }

  private void deliver(Throwable error, String message) {
    deliveryThread = Thread.currentThread();
    boolean fatal = !RecoverableException.isRecoverable(error);
    if (fatal) {
      plugin.failed().accept(error);
    }
    try {
      driver.handleError(error, message);
    } catch (RuntimeException e) {
      LOG.error("DraDriver.handleError failed on \"{}\"", LogText.text(message), e);
    }
    if (!fatal || policy == FatalErrorPolicy.REPORT) {
      return;
    }
    LOG.error("Fatal error \"{}\": closing the plugin{}", LogText.text(message),
        policy == FatalErrorPolicy.EXIT ? " and exiting with status 1" : "");
    if (policy == FatalErrorPolicy.EXIT) {
      // Before closing: closing releases main, and a main that returned before the exit was
      // arranged would end the JVM with status 0.
      plugin.exit().run();
    }
    plugin.close().run();
  }

  /** Stops taking errors, then lets a delivery in progress finish (unless called from it). */
  @Override
  public void close() {
    closing = true;
    thread.shutdown();
    if (Thread.currentThread() == deliveryThread) {
      return; // the driver closes the plugin from its handler: do not wait for ourselves
    }
    try {
      if (!thread.awaitTermination(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS)) {
        LOG.warn("DraDriver.handleError still running {} s after close; leaving it",
            CLOSE_WAIT_SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
