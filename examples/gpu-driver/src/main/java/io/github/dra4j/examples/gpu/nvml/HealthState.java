package io.github.dra4j.examples.gpu.nvml;

import io.github.dra4j.examples.gpu.health.GpuCondition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The health bookkeeping of {@link NvmlHealthSource}, apart from NVML so that the rules can be
 * tested with a clock of the test's own: what happened to each GPU, and the conditions that
 * follow at a given time. See {@link NvmlHealthSource} for the rules. Not thread-safe: owned
 * and used by the health source's thread only (and by {@code start} before that thread runs).
 */
final class HealthState {

  /** What the periodic device check found. */
  enum Check {
    /** The GPU answered and has nothing pending. */
    HEALTHY,
    /** The GPU answered, but a page retirement or row remapping is pending, or a check failed. */
    NOT_HEALTHY,
    /** The GPU does not answer: {@code NVML_ERROR_GPU_IS_LOST}. */
    LOST
  }

  /** One GPU's history; times are {@link System#nanoTime()} values. */
  private static final class GpuHealth {
    private long xid = -1;
    private long xidAt;
    private boolean ecc;
    private long eccAt;
    private Check lastCheck = Check.HEALTHY;
    private boolean checkedSinceEvent = true;
    private String unmonitored;
    private String lostDetail = "";
  }

  private final Map<String, GpuHealth> gpus = new LinkedHashMap<>();
  private final Set<Integer> ignoredXids;
  private final long quietNanos;
  private final String quiet;

  /**
   * Starts with healthy GPUs.
   *
   * @param uuids the GPUs, in the order conditions are listed
   * @param ignoredXids Xids not reported
   * @param quietPeriod how long a GPU must go without events before it recovers
   */
  HealthState(List<String> uuids, Set<Integer> ignoredXids, Duration quietPeriod) {
    for (String uuid : uuids) {
      gpus.put(uuid, new GpuHealth());
    }
    this.ignoredXids = Set.copyOf(ignoredXids);
    this.quietNanos = quietPeriod.toNanos();
    this.quiet = quietPeriod.toString().substring(2).toLowerCase(Locale.ROOT);
  }

  /**
   * Records an Xid event.
   *
   * @return false if the Xid is ignored (or the GPU unknown), so nothing changed
   */
  boolean xid(String uuid, long xid, long now) {
    GpuHealth gpu = gpus.get(uuid);
    if (gpu == null || (xid <= Integer.MAX_VALUE && ignoredXids.contains((int) xid))) {
      return false;
    }
    gpu.xid = xid;
    gpu.xidAt = now;
    gpu.checkedSinceEvent = false;
    return true;
  }

  /** Records a double-bit ECC event. */
  void doubleBitEcc(String uuid, long now) {
    GpuHealth gpu = gpus.get(uuid);
    if (gpu != null) {
      gpu.ecc = true;
      gpu.eccAt = now;
      gpu.checkedSinceEvent = false;
    }
  }

  /**
   * Records a device check.
   *
   * @param detail what the check found when not healthy, for the message
   */
  void checked(String uuid, Check result, String detail) {
    GpuHealth gpu = gpus.get(uuid);
    if (gpu != null) {
      gpu.lastCheck = result;
      gpu.checkedSinceEvent = true;
      if (result == Check.LOST) {
        gpu.lostDetail = detail;
      }
    }
  }

  /** Records that the GPU's events cannot be watched, for good. */
  void unmonitored(String uuid, String reason) {
    GpuHealth gpu = gpus.get(uuid);
    if (gpu != null) {
      gpu.unmonitored = reason;
    }
  }

  /**
   * The conditions at {@code now}, after clearing those the rules let go: per GPU in order,
   * {@code gpu-lost}, {@code xid}, {@code ecc}, {@code unmonitored}. Equal histories give equal
   * lists (the messages hold no times), so the caller can compare lists to find changes.
   */
  List<GpuCondition> conditions(long now) {
    List<GpuCondition> conditions = new ArrayList<>();
    for (Map.Entry<String, GpuHealth> entry : gpus.entrySet()) {
      String uuid = entry.getKey();
      GpuHealth gpu = entry.getValue();
      boolean healthy = gpu.lastCheck == Check.HEALTHY && gpu.checkedSinceEvent;
      if (gpu.xid >= 0 && healthy && now - gpu.xidAt >= quietNanos) {
        gpu.xid = -1;
      }
      if (gpu.ecc && healthy && now - gpu.eccAt >= quietNanos) {
        gpu.ecc = false;
      }
      if (gpu.lastCheck == Check.LOST) {
        conditions.add(new GpuCondition(uuid, "gpu-lost", "", true, "the GPU does not answer"
            + " NVML (" + gpu.lostDetail + "); the condition clears when it answers again"));
      }
      if (gpu.xid >= 0) {
        conditions.add(new GpuCondition(uuid, "xid", Long.toString(gpu.xid), true, "NVML reported"
            + " critical error Xid " + gpu.xid + "; the condition clears after " + quiet
            + " without Xid or ECC events and a healthy device check"));
      }
      if (gpu.ecc) {
        conditions.add(new GpuCondition(uuid, "ecc", "double-bit", true, "NVML reported a"
            + " double-bit (uncorrectable) ECC error; the condition clears after " + quiet
            + " without Xid or ECC events and a healthy device check (no pending page retirement"
            + " or row remapping)"));
      }
      if (gpu.unmonitored != null) {
        conditions.add(new GpuCondition(uuid, "unmonitored", "", false, "NVML cannot deliver"
            + " Xid and ECC events for this GPU (" + gpu.unmonitored + "); only lost GPUs are"
            + " detected"));
      }
    }
    return List.copyOf(conditions);
  }
}
