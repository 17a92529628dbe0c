package io.github.dra4j.benchmarks.floor;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * The runs of one driver scenario (one driver process with one setting of claim cache and
 * serialization) and of the floor alternating with it: per number of callers, each round's
 * figures of both, and the driver's memory after its rounds. Filled by one thread.
 */
public final class ScenarioResults {

  /** A driver process's settings, one per scenario. */
  public enum Scenario {
    /** The floor comparison: claim cache on, calls concurrent. */
    CACHE_CONCURRENT(true, false, "claim cache on, serialization off"),
    /** The SDK's default serialization (a lock around every call), claim cache on. */
    CACHE_SERIALIZED(true, true, "claim cache on, serialization on"),
    /** A GET of the claim from the API server in every call, calls concurrent. */
    GET_CONCURRENT(false, false, "a GET per claim (no cache), serialization off");

    private final boolean claimCache;
    private final boolean serialize;
    private final String title;

    Scenario(boolean claimCache, boolean serialize, String title) {
      this.claimCache = claimCache;
      this.serialize = serialize;
      this.title = title;
    }

    /**
     * The driver's claim cache setting.
     *
     * @return true for the cache
     */
    public boolean claimCache() {
      return claimCache;
    }

    /**
     * The driver's serialization setting.
     *
     * @return true for serialized calls
     */
    public boolean serialize() {
      return serialize;
    }

    /**
     * What the scenario is, for the report.
     *
     * @return the title
     */
    public String title() {
      return title;
    }
  }

  /**
   * A process's memory and threads, from {@code /proc} and, for a JVM, its own diagnostics.
   *
   * @param rssKib resident memory ({@code VmRSS})
   * @param anonKib its anonymous part ({@code RssAnon}: heap, stacks, malloc, code cache)
   * @param fileKib its file-backed part ({@code RssFile}: libraries, class archive)
   * @param threads the process's threads
   * @param jvm the JVM's figures; null for the floor
   */
  public record ProcessMemory(long rssKib, long anonKib, long fileKib, long threads,
      JvmMemory jvm) {

    /**
     * Reads a process's figures.
     *
     * @param pid the process
     * @param jcmd the JVM's jcmd, or null for a process that is not a JVM
     * @return the figures
     * @throws IOException if the process is gone or jcmd fails
     * @throws InterruptedException if interrupted while waiting for jcmd
     */
    public static ProcessMemory of(long pid, Path jcmd) throws IOException, InterruptedException {
      Map<String, String> status = ProcFs.status(pid);
      return new ProcessMemory(Long.parseLong(status.get("VmRSS")),
          Long.parseLong(status.getOrDefault("RssAnon", "-1")),
          Long.parseLong(status.getOrDefault("RssFile", "-1")),
          Long.parseLong(status.get("Threads")), jcmd == null ? null : JvmMemory.of(jcmd, pid));
    }
  }

  private final Scenario scenario;
  private final Map<Integer, List<GoBench.Result>> driver = new TreeMap<>();
  private final Map<Integer, List<GoBench.Result>> floor = new TreeMap<>();
  private final Map<Integer, List<GoBench.Result>> get = new TreeMap<>();
  private ProcessMemory memory;

  /**
   * Creates empty results.
   *
   * @param scenario the driver's settings
   */
  public ScenarioResults(Scenario scenario) {
    this.scenario = scenario;
  }

  /**
   * The scenario.
   *
   * @return the driver's settings
   */
  public Scenario scenario() {
    return scenario;
  }

  /**
   * Adds one round.
   *
   * @param callers the concurrent callers of both runs
   * @param driverRun the driver's figures
   * @param floorRun the floor's figures
   */
  public void add(int callers, GoBench.Result driverRun, GoBench.Result floorRun) {
    driver.computeIfAbsent(callers, c -> new ArrayList<>()).add(driverRun);
    floor.computeIfAbsent(callers, c -> new ArrayList<>()).add(floorRun);
  }

  /**
   * Adds one round of the claim GET alone ({@link ClaimGets}), timed in the same round as the
   * driver's run.
   *
   * @param callers the concurrent callers
   * @param getRun the GET's figures
   */
  public void addGet(int callers, GoBench.Result getRun) {
    get.computeIfAbsent(callers, c -> new ArrayList<>()).add(getRun);
  }

  /**
   * Whether the GET alone was timed with this many callers.
   *
   * @param callers concurrent callers
   * @return true if so
   */
  public boolean hasGet(int callers) {
    return get.containsKey(callers);
  }

  /**
   * The median over the rounds of one figure of the GET alone.
   *
   * @param callers concurrent callers
   * @param figure which figure
   * @return its median
   */
  public double get(int callers, ToDoubleFunction<GoBench.Result> figure) {
    return median(get.get(callers), figure);
  }

  /**
   * Whether runs with this many callers were made.
   *
   * @param callers concurrent callers
   * @return true if so
   */
  public boolean has(int callers) {
    return driver.containsKey(callers);
  }

  /**
   * The median over the rounds of one figure of the driver.
   *
   * @param callers concurrent callers
   * @param figure which figure
   * @return its median
   */
  public double driver(int callers, ToDoubleFunction<GoBench.Result> figure) {
    return median(driver.get(callers), figure);
  }

  /**
   * The median over the rounds of one figure of the floor.
   *
   * @param callers concurrent callers
   * @param figure which figure
   * @return its median
   */
  public double floor(int callers, ToDoubleFunction<GoBench.Result> figure) {
    return median(floor.get(callers), figure);
  }

  /**
   * Every round's p50, p99 and calls/s of both (and of the GET alone when timed), for judging
   * the noise.
   *
   * @return one line per number of callers
   */
  public String rounds() {
    StringBuilder out = new StringBuilder();
    for (int callers : driver.keySet()) {
      out.append(String.format("  %d caller%s: dra4j %s; floor %s%s%n", callers,
          callers == 1 ? "" : "s", rounds(driver.get(callers)), rounds(floor.get(callers)),
          get.containsKey(callers) ? "; GET alone " + rounds(get.get(callers)) : ""));
    }
    return out.toString();
  }

  private static String rounds(List<GoBench.Result> runs) {
    return runs.stream().map(r -> String.format("%.3f/%.3f ms %,.0f/s %.0f (%.0f sys) µs %.1f cs",
        r.p50Millis(), r.p99Millis(), r.callsPerSecond(), r.cpuMicrosPerCall(),
        r.systemMicrosPerCall(), r.switchesPerCall()))
        .collect(Collectors.joining(", ", "[", "]"));
  }

  /**
   * Sets the driver's memory after its rounds.
   *
   * @param memory what it was
   */
  public void memory(ProcessMemory memory) {
    this.memory = memory;
  }

  /**
   * The driver's memory after its rounds.
   *
   * @return what it was, null before it was read
   */
  public ProcessMemory memory() {
    return memory;
  }

  /**
   * The median of some values: the middle one, or the mean of the two middle ones.
   *
   * @param runs the runs
   * @param figure which of their figures
   * @return the median
   */
  public static double median(List<GoBench.Result> runs, ToDoubleFunction<GoBench.Result> figure) {
    return median(runs.stream().mapToDouble(figure).toArray());
  }

  /**
   * The median of some values: the middle one, or the mean of the two middle ones.
   *
   * @param values the values, not empty
   * @return the median
   */
  public static double median(double[] values) {
    double[] sorted = values.clone();
    java.util.Arrays.sort(sorted);
    int middle = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  }
}
