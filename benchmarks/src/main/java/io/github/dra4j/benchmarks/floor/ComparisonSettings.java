package io.github.dra4j.benchmarks.floor;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The settings of a {@link FloorComparisonBenchmark} run, from system properties ({@code
 * -Dname=value} on the Maven command line).
 *
 * @param goBench the Go program {@code bench} ({@code go.bench}, required)
 * @param goFloor the Go program {@code floor} ({@code go.floor}, required)
 * @param calls measured calls of each bench run ({@code calls}, default 10000)
 * @param warmup bench's own warm-up calls before each measured run ({@code warmup}, default
 *     2000)
 * @param jitWarmup calls of each unmeasured 8-caller run against a new driver process before its
 *     rounds, repeated until its CPU per call settles, so that the rounds see compiled code
 *     ({@code jit.warmup}, default 10000; 0 for none)
 * @param rounds alternating rounds of each scenario, whose medians are printed ({@code rounds},
 *     default 3)
 * @param callers the concurrent callers of each scenario ({@code callers}, default {@code 1,8})
 * @param starts start-ups and SIGTERMs timed ({@code starts}, default 5; 0 for none, to
 *     shorten a run while iterating)
 * @param scenarios the driver scenarios run, in their order ({@code scenarios}, names of {@link
 *     ScenarioResults.Scenario} separated by commas, in any case, e.g. {@code cache_concurrent};
 *     default all); the claim GET alone is timed only with {@code GET_CONCURRENT}
 * @param sdkJar a dra4j-kubeletplugin jar the driver runs instead of the one on this JVM's class
 *     path ({@code sdk.jar}; none by default), to compare two builds of the SDK in alternating
 *     invocations
 * @param java the driver's {@code java} ({@code java.bin}, default this JVM's)
 * @param jvmOptions the driver's JVM options ({@code driver.jvm.options}, default none: the
 *     JVM's defaults), with {@code -XX:NativeMemoryTracking=summary} added unless {@code nmt} is
 *     {@code false}
 * @param environment more environment variables for the driver ({@code driver.env}, {@code
 *     NAME=value,NAME=value}), which win over the benchmark's
 * @param profile a directory for JFR recordings of the driver under each scenario's load, with
 *     its CPU by thread ({@code profile}; none by default)
 * @param profileCalls measured calls of each profiled run ({@code profile.calls}, default 30000)
 * @param profilePerf whether each profiled load is also run once under Linux {@code perf} ({@code
 *     profile.perf}, default false; needs {@code perf} on the path)
 */
public record ComparisonSettings(Path goBench, Path goFloor, int calls, int warmup, int jitWarmup,
    int rounds, List<Integer> callers, int starts, List<ScenarioResults.Scenario> scenarios,
    Path sdkJar, Path java, List<String> jvmOptions,
    Map<String, String> environment, Path profile, int profileCalls, boolean profilePerf) {

  /**
   * Reads the settings from system properties.
   *
   * @return the settings
   * @throws IllegalArgumentException if a binary is missing or a number is malformed
   */
  public static ComparisonSettings fromSystemProperties() {
    Path bench = binary("go.bench");
    Path floor = binary("go.floor");
    List<String> options = new ArrayList<>();
    String given = System.getProperty("driver.jvm.options", "").strip();
    if (!given.isEmpty()) {
      options.addAll(Arrays.asList(given.split("\\s+")));
    }
    if (!"false".equals(System.getProperty("nmt"))) {
      options.add("-XX:NativeMemoryTracking=summary");
    }
    Map<String, String> environment = new LinkedHashMap<>();
    for (String pair : System.getProperty("driver.env", "").split(",", -1)) {
      if (!pair.isBlank()) {
        int equals = pair.indexOf('=');
        if (equals <= 0) {
          throw new IllegalArgumentException("driver.env: want NAME=value, got " + pair);
        }
        environment.put(pair.substring(0, equals).strip(), pair.substring(equals + 1).strip());
      }
    }
    String profile = System.getProperty("profile", "");
    ComparisonSettings settings = new ComparisonSettings(bench, floor, number("calls", 10_000),
        number("warmup", 2000), number("jit.warmup", 10_000), number("rounds", 3),
        Arrays.stream(System.getProperty("callers", "1,8").split(","))
            .map(String::strip).map(Integer::valueOf).toList(),
        number("starts", 5), scenarios(System.getProperty("scenarios", "")),
        System.getProperty("sdk.jar", "").isBlank() ? null
            : Path.of(System.getProperty("sdk.jar")).toAbsolutePath(),
        Path.of(System.getProperty("java.bin",
            Path.of(System.getProperty("java.home"), "bin", "java").toString())),
        List.copyOf(options), Map.copyOf(environment),
        profile.isBlank() ? null : Path.of(profile).toAbsolutePath(),
        number("profile.calls", 30_000), Boolean.getBoolean("profile.perf"));
    if (settings.rounds() < 1 || settings.starts() < 0 || settings.calls() < 8
        || settings.callers().stream().anyMatch(c -> c < 1 || c > settings.calls())) {
      throw new IllegalArgumentException("want rounds >= 1, starts >= 0, calls >= 8 and"
          + " 1 <= callers <= calls: " + settings);
    }
    return settings;
  }

  /**
   * The {@code jcmd} of the driver's JDK, next to its {@code java}; for a runtime without one (a
   * jlink runtime such as the GPU driver image's, {@code -Djava.bin=<runtime>/bin/java}) this
   * JVM's.
   *
   * @return the jcmd binary
   */
  public Path jcmd() {
    Path sibling;
    try {
      sibling = java.toRealPath().resolveSibling("jcmd");
    } catch (java.io.IOException e) {
      sibling = java.resolveSibling("jcmd");
    }
    return Files.isExecutable(sibling) ? sibling
        : Path.of(System.getProperty("java.home"), "bin", "jcmd");
  }

  private static Path binary(String property) {
    String value = System.getProperty(property);
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException("-D" + property + "=<path> is required: the Go"
          + " programs bench and floor, built with a Go toolchain (docs/performance.md, \"The Go"
          + " programs\")");
    }
    Path path = Path.of(value).toAbsolutePath();
    if (!Files.isExecutable(path)) {
      throw new IllegalArgumentException("-D" + property + "=" + value + ": not an executable");
    }
    return path;
  }

  private static List<ScenarioResults.Scenario> scenarios(String names) {
    if (names.isBlank()) {
      return List.of(ScenarioResults.Scenario.values());
    }
    try {
      return Arrays.stream(names.split(",")).map(String::strip)
          .map(name -> ScenarioResults.Scenario.valueOf(name.toUpperCase(Locale.ROOT)))
          .distinct().sorted().toList();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("-Dscenarios=" + names + ": want some of "
          + Arrays.toString(ScenarioResults.Scenario.values()), e);
    }
  }

  private static int number(String property, int fallback) {
    String value = System.getProperty(property);
    try {
      return value == null || value.isBlank() ? fallback : Integer.parseInt(value.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("-D" + property + "=" + value + ": not a number", e);
    }
  }
}
