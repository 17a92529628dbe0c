package io.github.dra4j.benchmarks.clusterscale;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * What the benchmark runs.
 *
 * @param nodes simulated nodes of the run that checks the model (each its own plugin instance)
 * @param parallelism how many nodes go through an event at the same time
 * @param quiet how long the API server must be quiet before an event counts as over
 * @param setups the driver setups measured, in table order
 * @param scales the node counts of the model
 */
public record ScaleSettings(int nodes, int parallelism, Duration quiet, List<DriverSetup> setups,
    List<Integer> scales) {

  /** The node counts of the model unless {@code --scales} says otherwise. */
  public static final List<Integer> DEFAULT_SCALES = List.of(100, 1_000, 5_000);

  /** The usage line. */
  public static final String USAGE = "options: --nodes N (default 20) --parallelism P (default 4)"
      + " --quiet-ms MS (default 500) --setups default,cache,plain (default all)"
      + " --scales 100,1000,5000";

  /**
   * Checks the values.
   *
   * @param nodes at least 1
   * @param parallelism at least 1
   * @param quiet positive
   * @param setups not empty
   * @param scales not empty, each at least 1
   */
  public ScaleSettings {
    if (nodes < 1 || parallelism < 1 || quiet.isNegative() || quiet.isZero()) {
      throw new IllegalArgumentException("nodes and parallelism must be at least 1, quiet"
          + " positive: nodes=" + nodes + ", parallelism=" + parallelism + ", quiet=" + quiet);
    }
    setups = List.copyOf(setups);
    scales = List.copyOf(scales);
    if (setups.isEmpty() || scales.isEmpty() || scales.stream().anyMatch(n -> n < 1)) {
      throw new IllegalArgumentException("setups and scales must not be empty, scales positive: "
          + setups + ", " + scales);
    }
  }

  /**
   * The defaults: 20 nodes, 4 at a time, 500 ms quiet, every setup, 100/1,000/5,000 nodes.
   *
   * @return the settings
   */
  public static ScaleSettings defaults() {
    return new ScaleSettings(20, 4, Duration.ofMillis(500), List.of(DriverSetup.values()),
        DEFAULT_SCALES);
  }

  /**
   * Reads {@code --name value} pairs over the defaults.
   *
   * @param args the command line
   * @return the settings
   * @throws IllegalArgumentException naming an unknown option or a bad value
   */
  public static ScaleSettings parse(String... args) {
    ScaleSettings settings = defaults();
    int nodes = settings.nodes();
    int parallelism = settings.parallelism();
    Duration quiet = settings.quiet();
    List<DriverSetup> setups = settings.setups();
    List<Integer> scales = settings.scales();
    for (int i = 0; i < args.length; i += 2) {
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException("option " + args[i] + " needs a value; " + USAGE);
      }
      String value = args[i + 1];
      switch (args[i]) {
        case "--nodes" -> nodes = Integer.parseInt(value);
        case "--parallelism" -> parallelism = Integer.parseInt(value);
        case "--quiet-ms" -> quiet = Duration.ofMillis(Long.parseLong(value));
        case "--setups" -> setups = setups(value);
        case "--scales" -> scales = Arrays.stream(value.split(","))
            .map(s -> Integer.parseInt(s.strip())).toList();
        default -> throw new IllegalArgumentException("unknown option " + args[i] + "; " + USAGE);
      }
    }
    return new ScaleSettings(nodes, parallelism, quiet, setups, scales);
  }

  private static List<DriverSetup> setups(String value) {
    Set<DriverSetup> chosen = EnumSet.noneOf(DriverSetup.class);
    for (String name : value.split(",", -1)) {
      chosen.add(switch (name.strip()) {
        case "default" -> DriverSetup.DEFAULT;
        case "cache" -> DriverSetup.CLAIM_CACHE;
        case "plain" -> DriverSetup.PLAIN_DRIVER;
        default -> throw new IllegalArgumentException("unknown setup \"" + name
            + "\": default, cache or plain");
      });
    }
    return new ArrayList<>(chosen);
  }
}
