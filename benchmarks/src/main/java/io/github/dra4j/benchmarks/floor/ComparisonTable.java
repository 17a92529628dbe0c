package io.github.dra4j.benchmarks.floor;

import io.github.dra4j.benchmarks.floor.ScenarioResults.ProcessMemory;
import io.github.dra4j.benchmarks.floor.ScenarioResults.Scenario;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The comparison as a Markdown table (figure | dra4j | Go floor | ratio), as the README shows
 * it. A ratio is dra4j's figure over the floor's. Filled by one thread, then printed.
 */
public final class ComparisonTable {

  private final List<String[]> rows = new ArrayList<>();

  /** Creates an empty table. */
  public ComparisonTable() {}

  /**
   * The comparison's table: per scenario the medians of latency, throughput and CPU per call of
   * each number of callers; the SDK's share next to the GET alone and the lock's cost; then
   * start-up, shutdown and the memory of the driver that ran serialized with the claim cache (the
   * issue's setting).
   *
   * @param settings the run's settings
   * @param results each scenario's runs
   * @param driverStarts the driver's medians: exec to registration socket, to DRA socket, SIGTERM
   *     to exit; ignored when {@code settings.starts()} is 0
   * @param floorStarts the floor's medians in the same order (both sockets are its one socket)
   * @param floorMemory the floor's memory after the runs
   * @return the table
   */
  public static ComparisonTable of(ComparisonSettings settings,
      Map<Scenario, ScenarioResults> results, double[] driverStarts,
      double[] floorStarts, ProcessMemory floorMemory) {
    ComparisonTable table = new ComparisonTable();
    for (ScenarioResults r : results.values()) {
      table.section(r.scenario().title());
      for (int c : settings.callers()) {
        String callers = c + (c == 1 ? " caller" : " callers");
        table.millis("prepare p50, " + callers, r.driver(c, GoBench.Result::p50Millis),
            r.floor(c, GoBench.Result::p50Millis));
        table.millis("prepare p99, " + callers, r.driver(c, GoBench.Result::p99Millis),
            r.floor(c, GoBench.Result::p99Millis));
        table.rate("calls/s, " + callers, r.driver(c, GoBench.Result::callsPerSecond),
            r.floor(c, GoBench.Result::callsPerSecond));
        table.micros("server CPU per call, " + callers,
            r.driver(c, GoBench.Result::cpuMicrosPerCall),
            r.floor(c, GoBench.Result::cpuMicrosPerCall));
        table.micros("  of it in the kernel, " + callers,
            r.driver(c, GoBench.Result::systemMicrosPerCall),
            r.floor(c, GoBench.Result::systemMicrosPerCall));
        table.decimal("server context switches per call, " + callers,
            r.driver(c, GoBench.Result::switchesPerCall),
            r.floor(c, GoBench.Result::switchesPerCall));
        ScenarioResults unserialized = results.get(Scenario.CACHE_CONCURRENT);
        if (r.scenario() == Scenario.CACHE_SERIALIZED && unserialized != null) {
          table.millis("the lock's cost: p50 serialized minus unserialized, " + callers,
              r.driver(c, GoBench.Result::p50Millis)
                  - unserialized.driver(c, GoBench.Result::p50Millis),
              Double.NaN);
        }
        if (r.hasGet(c)) {
          table.millis("the claim GET alone (own JVM, the driver's client), p50, " + callers,
              r.get(c, GoBench.Result::p50Millis), Double.NaN);
          table.rate("the claim GET alone, calls/s, " + callers,
              r.get(c, GoBench.Result::callsPerSecond), Double.NaN);
          table.micros("the claim GET alone, CPU per call of its JVM, " + callers,
              r.get(c, GoBench.Result::cpuMicrosPerCall), Double.NaN);
          table.millis("prepare p50 minus the GET alone (the SDK's share), " + callers,
              r.driver(c, GoBench.Result::p50Millis) - r.get(c, GoBench.Result::p50Millis),
              r.floor(c, GoBench.Result::p50Millis));
          table.micros("server CPU per call minus the GET alone's (the SDK's share), " + callers,
              r.driver(c, GoBench.Result::cpuMicrosPerCall)
                  - r.get(c, GoBench.Result::cpuMicrosPerCall),
              r.floor(c, GoBench.Result::cpuMicrosPerCall));
        }
      }
    }
    if (settings.starts() > 0) {
      table.section("process (claim cache on, serialized), medians of " + settings.starts()
          + " starts");
      table.wholeMillis("exec to registration socket (floor: to its socket)", driverStarts[0],
          floorStarts[0]);
      table.wholeMillis("exec to DRA socket", driverStarts[1], floorStarts[1]);
      table.wholeMillis("SIGTERM to exit, no call in flight", driverStarts[2], floorStarts[2]);
    }
    ProcessMemory memory = results.containsKey(Scenario.CACHE_SERIALIZED)
        ? results.get(Scenario.CACHE_SERIALIZED).memory() : null;
    if (memory != null) {
      table.section("memory after the runs (claim cache on, serialized)");
      table.memory("resident memory (VmRSS)", memory.rssKib(), floorMemory.rssKib());
      table.memory("of it anonymous (RssAnon)", memory.anonKib(), floorMemory.anonKib());
      table.text("heap used / committed", JvmMemory.mib(memory.jvm().heapUsedKib()) + " / "
          + JvmMemory.mib(memory.jvm().heapCommittedKib()), "—");
      table.text("metaspace used / committed", JvmMemory.mib(memory.jvm().metaspaceUsedKib())
          + " / " + JvmMemory.mib(memory.jvm().metaspaceCommittedKib()), "—");
      table.memory("direct memory (NMT Other)", memory.jvm().directKib(), -1);
      table.count("threads", memory.threads(), floorMemory.threads());
    }
    return table;
  }

  /**
   * A section heading, as a row in bold.
   *
   * @param title the section's title
   */
  public void section(String title) {
    rows.add(new String[] {"**" + title + "**", "", "", ""});
  }

  /**
   * A latency row.
   *
   * @param figure what is measured
   * @param draMillis dra4j's figure, ms
   * @param floorMillis the floor's figure, ms; NaN if it has none
   */
  public void millis(String figure, double draMillis, double floorMillis) {
    add(figure, String.format("%.3f ms", draMillis),
        Double.isNaN(floorMillis) ? "—" : String.format("%.3f ms", floorMillis),
        ratio(draMillis, floorMillis));
  }

  /**
   * A duration row of whole milliseconds (start-up, shutdown).
   *
   * @param figure what is measured
   * @param draMillis dra4j's figure, ms
   * @param floorMillis the floor's figure, ms
   */
  public void wholeMillis(String figure, double draMillis, double floorMillis) {
    add(figure, String.format("%,.0f ms", draMillis),
        Double.isNaN(floorMillis) ? "—" : String.format("%,.0f ms", floorMillis),
        ratio(draMillis, floorMillis));
  }

  /**
   * A throughput row.
   *
   * @param figure what is measured
   * @param draRate dra4j's calls per second
   * @param floorRate the floor's calls per second
   */
  public void rate(String figure, double draRate, double floorRate) {
    add(figure, String.format("%,.0f", draRate),
        Double.isNaN(floorRate) ? "—" : String.format("%,.0f", floorRate),
        ratio(draRate, floorRate));
  }

  /**
   * A CPU-per-call row.
   *
   * @param figure what is measured
   * @param draMicros dra4j's microseconds per call
   * @param floorMicros the floor's microseconds per call
   */
  public void micros(String figure, double draMicros, double floorMicros) {
    add(figure, String.format("%,.0f µs", draMicros),
        Double.isNaN(floorMicros) ? "—" : String.format("%,.0f µs", floorMicros),
        ratio(draMicros, floorMicros));
  }

  /**
   * A row of a plain number with one decimal.
   *
   * @param figure what is measured
   * @param dra dra4j's figure
   * @param floor the floor's figure
   */
  public void decimal(String figure, double dra, double floor) {
    add(figure, String.format("%.1f", dra), String.format("%.1f", floor), ratio(dra, floor));
  }

  /**
   * A memory row.
   *
   * @param figure what is measured
   * @param draKib dra4j's figure, KiB (-1 unknown)
   * @param floorKib the floor's figure, KiB, or -1 if it has none
   */
  public void memory(String figure, long draKib, long floorKib) {
    add(figure, JvmMemory.mib(draKib), floorKib < 0 ? "—" : JvmMemory.mib(floorKib),
        draKib < 0 || floorKib <= 0 ? "" : ratio((double) draKib, (double) floorKib));
  }

  /**
   * A row of counts.
   *
   * @param figure what is counted
   * @param dra dra4j's count
   * @param floor the floor's count
   */
  public void count(String figure, long dra, long floor) {
    add(figure, Long.toString(dra), Long.toString(floor), ratio((double) dra, (double) floor));
  }

  /**
   * A row as text, without a ratio.
   *
   * @param figure what is shown
   * @param dra dra4j's cell
   * @param floor the floor's cell
   */
  public void text(String figure, String dra, String floor) {
    add(figure, dra, floor, "");
  }

  private void add(String figure, String dra, String floor, String ratio) {
    rows.add(new String[] {figure, dra, floor, ratio});
  }

  private static String ratio(double dra, double floor) {
    if (Double.isNaN(floor) || floor <= 0) {
      return "";
    }
    double ratio = dra / floor;
    return String.format(ratio >= 10 ? "%.0f×" : "%.2f×", ratio);
  }

  /**
   * The table in Markdown, columns padded.
   *
   * @return the lines, header first
   */
  @Override
  public String toString() {
    String[] header = {"figure", "dra4j driver", "Go floor", "ratio"};
    int[] widths = new int[4];
    List<String[]> all = new ArrayList<>();
    all.add(header);
    all.addAll(rows);
    for (String[] row : all) {
      for (int i = 0; i < 4; i++) {
        widths[i] = Math.max(widths[i], row[i].length());
      }
    }
    StringBuilder out = new StringBuilder();
    for (int r = 0; r < all.size(); r++) {
      String[] row = all.get(r);
      out.append('|');
      for (int i = 0; i < 4; i++) {
        String cell = i == 0 ? pad(row[i], widths[i], false) : pad(row[i], widths[i], true);
        out.append(' ').append(cell).append(" |");
      }
      out.append('\n');
      if (r == 0) {
        out.append('|');
        for (int i = 0; i < 4; i++) {
          out.append(i == 0 ? "-".repeat(widths[i] + 2) : "-".repeat(widths[i] + 1) + ":")
              .append('|');
        }
        out.append('\n');
      }
    }
    return out.toString();
  }

  private static String pad(String text, int width, boolean right) {
    String spaces = " ".repeat(width - text.length());
    return right ? spaces + text : text + spaces;
  }
}
