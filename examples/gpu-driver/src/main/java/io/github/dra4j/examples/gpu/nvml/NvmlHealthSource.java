package io.github.dra4j.examples.gpu.nvml;

import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import io.github.dra4j.examples.gpu.health.GpuCondition;
import io.github.dra4j.examples.gpu.health.HealthSource;
import io.github.dra4j.examples.gpu.nvml.HealthState.Check;
import io.github.dra4j.examples.gpu.nvml.internal.NvmlLibrary;
import io.github.dra4j.examples.gpu.nvml.internal.NvmlStructs;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the GPUs through NVML events and periodic device checks, on one daemon thread
 * ({@code nvml-health}).
 *
 * <p>Conditions:
 *
 * <ul>
 *   <li>an Xid critical error event ({@code nvmlEventTypeXidCriticalError}) with Xid N: key
 *       {@code xid}, value N (the latest if several), blocking; unless N is ignored ({@link
 *       NvmlOptions#ignoredXids()}: 13, 31, 43, 45, 68, 109 and the additional ones), then it is
 *       not reported at all;
 *   <li>a double-bit ECC event ({@code nvmlEventTypeDoubleBitEccError}): key {@code ecc}, value
 *       {@code double-bit}, blocking; single-bit (corrected) errors are not watched;
 *   <li>a GPU whose device check returns {@code NVML_ERROR_GPU_IS_LOST}: key {@code gpu-lost},
 *       blocking;
 *   <li>a GPU NVML cannot register events for ({@code NOT_SUPPORTED}, or neither event type
 *       supported): key {@code unmonitored}, not blocking, for as long as the source runs.
 * </ul>
 *
 * <p>Recovery, without a restart: every {@link NvmlOptions#healthPollInterval()} each GPU is
 * checked ({@code nvmlDeviceGetMemoryInfo}, {@code nvmlDeviceGetRetiredPagesPendingStatus},
 * {@code nvmlDeviceGetRemappedRows}; {@code NOT_SUPPORTED} counts as nothing pending). A {@code
 * gpu-lost} condition clears at the first check the GPU answers. An {@code xid} or {@code ecc}
 * condition clears once the GPU has gone {@link NvmlOptions#recoveryQuietPeriod()} without a new
 * Xid or ECC event (a new event restarts the period) and the latest check, made after the last
 * event, found it healthy: answering, with no page retirement or row remapping pending (those
 * wait for a GPU reset, so a GPU that needs one stays tainted until it had it).
 *
 * <p>The listener gets the complete list first (after the first check), then after every change,
 * always from this source's thread. The thread owns the event set and the {@link HealthState};
 * the {@link NvmlBackend} owns this source and the NVML session it borrows, and closes this
 * first.
 */
final class NvmlHealthSource implements HealthSource {

  private static final Logger LOG = LoggerFactory.getLogger(NvmlHealthSource.class);

  /** The longest wait for events, which bounds how long {@link #close} waits for the thread. */
  private static final long MAX_WAIT_MS = 500;

  private static final long WATCHED_EVENTS = NvmlLibrary.EVENT_XID_CRITICAL_ERROR
      | NvmlLibrary.EVENT_DOUBLE_BIT_ECC_ERROR;

  /** A GPU being watched. */
  private record Watched(Pointer handle, String uuid, int minor) {}

  private final NvmlSession session;
  private final NvmlOptions options;
  private final Object deliveryLock = new Object();
  private volatile boolean closed;
  private Thread thread; // guarded by this

  NvmlHealthSource(NvmlSession session, NvmlOptions options) {
    this.session = session;
    this.options = options;
  }

  @Override
  public void start(Consumer<List<GpuCondition>> listener) throws NvmlException {
    synchronized (this) {
      if (closed) {
        throw new IllegalStateException("the NVML health source is closed");
      }
      if (thread != null) {
        throw new IllegalStateException("the NVML health source is already started");
      }
      List<Watched> gpus = watchedGpus();
      HealthState state = new HealthState(gpus.stream().map(Watched::uuid).toList(),
          options.ignoredXids(), options.recoveryQuietPeriod());
      NvmlLibrary nvml = session.library();
      Pointer eventSet = session.handle("nvmlEventSetCreate", "", nvml::nvmlEventSetCreate);
      try {
        for (Watched gpu : gpus) {
          register(gpu, eventSet, state);
        }
      } catch (NvmlException | RuntimeException e) {
        session.status("nvmlEventSetFree", () -> nvml.nvmlEventSetFree(eventSet));
        throw e;
      }
      thread = new Thread(() -> run(listener, gpus, state, eventSet), "nvml-health");
      thread.setDaemon(true);
      thread.start();
      LOG.info("Watching the health of {} GPUs through NVML events (poll every {}, recovery"
          + " after {} without events)", gpus.size(), options.healthPollInterval(),
          options.recoveryQuietPeriod());
    }
  }

  @Override
  public void close() {
    Thread running;
    synchronized (this) {
      closed = true;
      running = thread;
    }
    synchronized (deliveryLock) {
      // a delivery in progress has finished; none starts from now on
    }
    if (running == null || running == Thread.currentThread()) {
      return;
    }
    try {
      running.join(MAX_WAIT_MS * 4 + 2_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (running.isAlive()) {
      LOG.warn("The NVML health thread has not stopped yet; it stops after its current call");
    }
  }

  private List<Watched> watchedGpus() throws NvmlException {
    NvmlLibrary nvml = session.library();
    int count = session.number("nvmlDeviceGetCount_v2", "", nvml::nvmlDeviceGetCount_v2);
    List<Watched> gpus = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      int index = i;
      Pointer handle;
      try {
        handle = session.handle("nvmlDeviceGetHandleByIndex_v2", "GPU index " + i,
            ref -> nvml.nvmlDeviceGetHandleByIndex_v2(index, ref));
      } catch (NvmlException e) {
        if (e.returnCode() != NvmlLibrary.ERROR_GPU_IS_LOST) {
          throw e;
        }
        LOG.error("Not watching GPU index {}: it is lost, so its UUID is unknown ({})", i,
            e.getMessage());
        continue;
      }
      String uuid = session.text("nvmlDeviceGetUUID", "GPU index " + i,
          NvmlLibrary.DEVICE_UUID_BUFFER_SIZE, (b, l) -> nvml.nvmlDeviceGetUUID(handle, b, l));
      int minor = session.number("nvmlDeviceGetMinorNumber", "GPU index " + i,
          v -> nvml.nvmlDeviceGetMinorNumber(handle, v));
      gpus.add(new Watched(handle, uuid, minor));
    }
    gpus.sort(Comparator.comparingInt(Watched::minor));
    return gpus;
  }

  private void register(Watched gpu, Pointer eventSet, HealthState state) throws NvmlException {
    NvmlLibrary nvml = session.library();
    String subject = "GPU " + gpu.uuid();
    LongByReference supported = new LongByReference();
    int result = session.status("nvmlDeviceGetSupportedEventTypes",
        () -> nvml.nvmlDeviceGetSupportedEventTypes(gpu.handle(), supported));
    long events = WATCHED_EVENTS;
    if (result == NvmlLibrary.SUCCESS) {
      events &= supported.getValue();
      if (events == 0) {
        unmonitored(state, gpu, "it supports neither Xid nor double-bit ECC events");
        return;
      }
    } else if (result != NvmlLibrary.ERROR_NOT_SUPPORTED
        && result != NvmlLibrary.ERROR_FUNCTION_NOT_FOUND) {
      handleRegistrationFailure("nvmlDeviceGetSupportedEventTypes", gpu, result, state);
      return;
    }
    long mask = events;
    result = session.status("nvmlDeviceRegisterEvents",
        () -> nvml.nvmlDeviceRegisterEvents(gpu.handle(), mask, eventSet));
    if (result == NvmlLibrary.SUCCESS) {
      if (mask != WATCHED_EVENTS) {
        LOG.warn("{} supports only event mask {} of Xid and double-bit ECC", subject, mask);
      }
      return;
    }
    handleRegistrationFailure("nvmlDeviceRegisterEvents", gpu, result, state);
  }

  private void handleRegistrationFailure(String call, Watched gpu, int result,
      HealthState state) throws NvmlException {
    if (result == NvmlLibrary.ERROR_NOT_SUPPORTED) {
      unmonitored(state, gpu, call + ": " + session.describe(result));
    } else if (result == NvmlLibrary.ERROR_GPU_IS_LOST) {
      LOG.error("GPU {} is lost while registering for events", gpu.uuid());
      state.checked(gpu.uuid(), Check.LOST, call + ": " + session.describe(result));
      unmonitored(state, gpu, call + ": " + session.describe(result));
    } else {
      throw session.failure(call, "GPU " + gpu.uuid(), result);
    }
  }

  private static void unmonitored(HealthState state, Watched gpu, String reason) {
    LOG.warn("GPU {} (minor {}) is not watched for Xid and ECC errors: {}", gpu.uuid(),
        gpu.minor(), reason);
    state.unmonitored(gpu.uuid(), reason);
  }

  private void run(Consumer<List<GpuCondition>> listener, List<Watched> gpus, HealthState state,
      Pointer eventSet) {
    NvmlLibrary nvml = session.library();
    Map<Long, Watched> byHandle = new HashMap<>();
    gpus.forEach(gpu -> byHandle.put(Pointer.nativeValue(gpu.handle()), gpu));
    long pollNanos = options.healthPollInterval().toNanos();
    long nextCheck = System.nanoTime();
    List<GpuCondition> delivered = null;
    int lastError = NvmlLibrary.SUCCESS;
    NvmlStructs.EventData event = new NvmlStructs.EventData();
    try {
      while (!closed) {
        try {
          long now = System.nanoTime();
          if (now - nextCheck >= 0) {
            gpus.forEach(gpu -> check(gpu, state));
            nextCheck = now + pollNanos;
          }
          List<GpuCondition> current = state.conditions(System.nanoTime());
          if (!current.equals(delivered)) {
            deliver(listener, current, delivered);
            delivered = current;
          }
          int waitMs = (int) Math.max(1, Math.min(MAX_WAIT_MS,
              (nextCheck - System.nanoTime()) / 1_000_000));
          int result = session.status("nvmlEventSetWait_v2",
              () -> nvml.nvmlEventSetWait_v2(eventSet, event, waitMs));
          if (result == NvmlLibrary.SUCCESS) {
            onEvent(event, byHandle, state);
          } else if (result == NvmlLibrary.ERROR_GPU_IS_LOST) {
            nextCheck = System.nanoTime();
          } else if (result != NvmlLibrary.ERROR_TIMEOUT && !closed) {
            if (result != lastError) {
              LOG.warn("nvmlEventSetWait_v2 failed: {}; checking the GPUs every {}",
                  session.describe(result), options.healthPollInterval());
            }
            Thread.sleep(waitMs);
          }
          lastError = result;
        } catch (RuntimeException e) {
          LOG.error("NVML health watch failed; going on", e);
          Thread.sleep(MAX_WAIT_MS);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      session.status("nvmlEventSetFree", () -> nvml.nvmlEventSetFree(eventSet));
      LOG.debug("NVML health watch stopped");
    }
  }

  private void deliver(Consumer<List<GpuCondition>> listener, List<GpuCondition> current,
      List<GpuCondition> previous) {
    synchronized (deliveryLock) {
      if (closed) {
        return;
      }
      if (previous != null) {
        LOG.info("GPU health changed: {} condition(s) now: {}", current.size(), current.stream()
            .map(c -> c.uuid() + " " + c.key() + (c.value().isEmpty() ? "" : "=" + c.value()))
            .toList());
      }
      try {
        listener.accept(current);
      } catch (RuntimeException e) {
        LOG.error("The GPU health listener failed", e);
      }
    }
  }

  private void onEvent(NvmlStructs.EventData event, Map<Long, Watched> byHandle,
      HealthState state) {
    Watched gpu = byHandle.get(Pointer.nativeValue(event.device));
    if (gpu == null) {
      LOG.debug("NVML event type {} for an unknown device; ignored", event.eventType);
      return;
    }
    long now = System.nanoTime();
    if ((event.eventType & NvmlLibrary.EVENT_XID_CRITICAL_ERROR) != 0) {
      if (state.xid(gpu.uuid(), event.eventData, now)) {
        LOG.warn("GPU {} (minor {}): Xid {}", gpu.uuid(), gpu.minor(), event.eventData);
      } else {
        LOG.info("GPU {} (minor {}): Xid {}, which is ignored", gpu.uuid(), gpu.minor(),
            event.eventData);
      }
    }
    if ((event.eventType & NvmlLibrary.EVENT_DOUBLE_BIT_ECC_ERROR) != 0) {
      LOG.warn("GPU {} (minor {}): double-bit ECC error", gpu.uuid(), gpu.minor());
      state.doubleBitEcc(gpu.uuid(), now);
    }
    if ((event.eventType & NvmlLibrary.EVENT_SINGLE_BIT_ECC_ERROR) != 0) {
      LOG.debug("GPU {}: single-bit ECC error (corrected; not a condition)", gpu.uuid());
    }
  }

  /** One device check; see the class comment. */
  private void check(Watched gpu, HealthState state) {
    NvmlLibrary nvml = session.library();
    Pointer handle = gpu.handle();
    NvmlStructs.MemoryInfo memory = new NvmlStructs.MemoryInfo();
    int result = session.status("nvmlDeviceGetMemoryInfo",
        () -> nvml.nvmlDeviceGetMemoryInfo(handle, memory));
    if (lostOrFailed("nvmlDeviceGetMemoryInfo", result, gpu, state)) {
      return;
    }
    IntByReference retirementPending = new IntByReference();
    result = session.status("nvmlDeviceGetRetiredPagesPendingStatus",
        () -> nvml.nvmlDeviceGetRetiredPagesPendingStatus(handle, retirementPending));
    if (lostOrFailed("nvmlDeviceGetRetiredPagesPendingStatus", result, gpu, state)) {
      return;
    }
    boolean retiring = result == NvmlLibrary.SUCCESS && retirementPending.getValue() != 0;
    IntByReference corrected = new IntByReference();
    IntByReference uncorrected = new IntByReference();
    IntByReference remapPending = new IntByReference();
    IntByReference remapFailed = new IntByReference();
    result = session.status("nvmlDeviceGetRemappedRows", () -> nvml.nvmlDeviceGetRemappedRows(
        handle, corrected, uncorrected, remapPending, remapFailed));
    if (lostOrFailed("nvmlDeviceGetRemappedRows", result, gpu, state)) {
      return;
    }
    boolean remapping = result == NvmlLibrary.SUCCESS
        && (remapPending.getValue() != 0 || remapFailed.getValue() != 0);
    if (retiring || remapping) {
      state.checked(gpu.uuid(), Check.NOT_HEALTHY, retiring ? "page retirement pending"
          : "row remapping pending or failed");
    } else {
      state.checked(gpu.uuid(), Check.HEALTHY, "");
    }
  }

  /** Records a lost GPU or failed check; true if the check is over. */
  private boolean lostOrFailed(String call, int result, Watched gpu, HealthState state) {
    if (result == NvmlLibrary.SUCCESS || result == NvmlLibrary.ERROR_NOT_SUPPORTED
        || result == NvmlLibrary.ERROR_FUNCTION_NOT_FOUND) {
      return false;
    }
    String detail = call + ": " + session.describe(result);
    state.checked(gpu.uuid(), result == NvmlLibrary.ERROR_GPU_IS_LOST ? Check.LOST
        : Check.NOT_HEALTHY, detail);
    return true;
  }
}
