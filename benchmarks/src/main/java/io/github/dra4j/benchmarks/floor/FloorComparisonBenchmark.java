package io.github.dra4j.benchmarks.floor;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.dra4j.benchmarks.floor.ScenarioResults.ProcessMemory;
import io.github.dra4j.benchmarks.floor.ScenarioResults.Scenario;
import io.github.dra4j.benchmarks.kubeletplugin.ApiServerAccess;
import io.github.dra4j.benchmarks.kubeletplugin.BenchmarkClaims;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourceResponse;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourcesResponse;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import io.github.dra4j.testing.kubelet.KubeletClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A dra4j driver against the Go floor, unattended: the side-by-side comparison, printed as one
 * table with everything it ran with. The kubelet's side is the Go program {@code bench} (grpc-go
 * with the kubelet's messages); the floor is the Go program {@code floor}, a bare grpc-go DRA
 * server that answers from memory (docs/performance.md, "The Go programs", says what both do);
 * the dra4j side is {@link FloorPeerDriver}, the same answer from memory through the SDK, run as a
 * JVM process in rolling-update mode against an in-memory API server holding an allocated claim.
 *
 * <p>For each driver scenario ({@link Scenario}: claim cache on with serialization off, which is
 * the floor comparison, then on, then a GET per claim) one driver process is started, checked
 * from Java to prepare the claim without a per-claim error, warmed up, and then measured against
 * the floor in alternating runs (floor, dra4j, floor, dra4j, ...) with 1 and 8 callers; the table
 * gives the medians over the rounds. Each run's CPU per call is the server's user + system time
 * from {@code /proc/<pid>/stat} over the run, divided by its calls. With a GET per claim, each
 * round also times the claim GET alone ({@link ClaimGets}: a JVM started as the driver is, same
 * class path and so the same HTTP client, same API server variables, warmed up as the driver is)
 * with the same callers, so that prepare minus GET is what the SDK adds. After that: exec to
 * registration socket and SIGTERM to exit (no call in flight), median of several starts; resident
 * memory, heap, metaspace, direct memory (NMT) and threads of the driver after its runs.
 *
 * <p>Run (from the repository, with the two Go programs built with a Go toolchain): {@code
 * ./mvnw -B -q -Pbenchmarks -pl benchmarks exec:java
 * -Dexec.mainClass=io.github.dra4j.benchmarks.floor.FloorComparisonBenchmark
 * -Dgo.bench=<path of bench> -Dgo.floor=<path of floor>}; the other options are those of
 * {@link ComparisonSettings} ({@code calls}, {@code rounds}, {@code driver.jvm.options}, {@code
 * java.bin}, {@code profile}, ...).
 *
 * <p>With {@code -Dprofile=<dir>} the driver of each scenario is then recorded with JFR under
 * each load ({@code <dir>/<scenario>-<callers>c.jfr}, summarized by {@link JfrSummary}) and, with
 * {@code -Dprofile.perf=true}, sampled by Linux {@code perf} ({@link PerfProfile}).
 */
public final class FloorComparisonBenchmark {

  /** The most JIT warm-up runs a driver process gets before its measured rounds. */
  private static final int WARM_UP_RUNS = 8;

  /**
   * The fewest: C2 compiles the call path over some 50,000 calls on 2 cores, and the CPU per call
   * can level off for a run on the way there.
   */
  private static final int WARM_UP_MIN_RUNS = 5;

  private static final String CLAIM = "bench";

  /** GetInfo calls before a driver counts as not registering. */
  private static final int GET_INFO_ATTEMPTS = 3;

  /** Idle time before a timed SIGTERM, so that no call and no start-up work is in flight. */
  private static final long IDLE_BEFORE_SIGTERM_MILLIS = 1000;

  /** JFR's sampling period when profiling: 10 ms in its {@code profile} settings. */
  private static final Duration PROFILE_PERIOD = Duration.ofMillis(2);

  private FloorComparisonBenchmark() {}

  /**
   * Runs the comparison and prints it.
   *
   * @param args unused; see {@link ComparisonSettings}
   * @throws Exception if a process fails, a check fails, or a call fails
   */
  public static void main(String[] args) throws Exception {
    ComparisonSettings settings = ComparisonSettings.fromSystemProperties();
    long begin = System.nanoTime();
    String loadBefore = loadAverage();
    Path root = Files.createTempDirectory(Path.of("/tmp"), "flr"); // socket paths are short
    Path profile = settings.profile();
    if (profile != null) {
      Files.createDirectories(profile);
    }
    try (InMemoryApiServer server = InMemoryApiServer.builder().build().start();
        KubeletClient kubelet = KubeletClient.create();
        ServerProcess floor = ServerProcess.startFloor(settings.goFloor(),
            root.resolve("floor.sock"), root.resolve("floor.log"))) {
      KubernetesClient client = server.client();
      client.nodes().resource(new NodeBuilder().withNewMetadata().withName("node").endMetadata()
          .build()).create();
      ResourceClaim claim = BenchmarkClaims.store(client, FloorPeerDriver.NAME, CLAIM);
      String uid = claim.getMetadata().getUid();
      ServerProcess.JvmLaunch launch = new ServerProcess.JvmLaunch(settings.java(),
          settings.jvmOptions(), driverClassPath(settings), ApiServerAccess.inCluster(server.url()),
          settings.environment());
      GoBench bench = new GoBench(settings.goBench(), "default/" + CLAIM + "/" + uid,
          settings.warmup());
      checkPrepare(kubelet, floor.draSocket(), uid, "the floor");
      printHeader(settings, loadBefore);

      Map<Scenario, ScenarioResults> results = new EnumMap<>(Scenario.class);
      for (Scenario scenario : settings.scenarios()) {
        results.put(scenario, runScenario(settings, scenario, launch, root, kubelet, bench,
            floor, uid));
      }
      ProcessMemory floorMemory = ProcessMemory.of(floor.pid(), null);
      Starts driverStarts = driverStarts(settings, launch, root, kubelet, uid);
      Starts floorStarts = floorStarts(settings, root, kubelet, uid);

      double[] none = {Double.NaN, Double.NaN, Double.NaN};
      ComparisonTable table = ComparisonTable.of(settings, results,
          settings.starts() > 0 ? driverStarts.median() : none,
          settings.starts() > 0 ? floorStarts.median() : none, floorMemory);
      System.out.println();
      System.out.print(table);
      System.out.println();
      System.out.println("Every round (p50/p99, calls/s, server CPU and context switches (cs)"
          + " per call):");
      results.values().forEach(r -> System.out.print(r.scenario().title() + ":\n" + r.rounds()));
      if (settings.starts() > 0) {
        System.out.println("start-ups, exec to registration socket / DRA socket / SIGTERM to"
            + " exit, ms: dra4j " + driverStarts + "; floor (its one socket) " + floorStarts);
      }
      results.values().forEach(r -> System.out.printf("memory of the driver after its runs, %s:"
          + " RSS %s (anon %s, file %s), threads %d, %s%n", r.scenario().title(),
          JvmMemory.mib(r.memory().rssKib()), JvmMemory.mib(r.memory().anonKib()),
          JvmMemory.mib(r.memory().fileKib()), r.memory().threads(), r.memory().jvm()));
      System.out.printf("memory of the floor after the runs: RSS %s (anon %s, file %s),"
          + " threads %d%n", JvmMemory.mib(floorMemory.rssKib()),
          JvmMemory.mib(floorMemory.anonKib()), JvmMemory.mib(floorMemory.fileKib()),
          floorMemory.threads());
      System.out.printf("%nload average before: %s; after: %s; took %.0f s; driver logs in %s%n",
          loadBefore, loadAverage(), (System.nanoTime() - begin) / 1e9, root);
    }
  }

  /** Starts, checks, warms up and measures one driver process against the floor. */
  // "d" and the ordinal: a short directory, so that the sockets in it stay within the length a
  // Unix socket path may have.
  @SuppressWarnings("EnumOrdinal")
  private static ScenarioResults runScenario(ComparisonSettings settings, Scenario scenario,
      ServerProcess.JvmLaunch launch, Path root, KubeletClient kubelet, GoBench bench,
      ServerProcess floor, String uid) throws Exception {
    ScenarioResults results = new ScenarioResults(scenario);
    System.err.printf("%s: starting the driver%n", scenario.title());
    try (ServerProcess driver = ServerProcess.startDriver(launch,
        root.resolve("d" + scenario.ordinal()), scenario.claimCache(),
        scenario.serialize());
        ClaimGets gets = scenario == Scenario.GET_CONCURRENT
            ? ClaimGets.start(launch, "default", CLAIM, root.resolve("gets.log")) : null) {
      checkDriver(kubelet, driver, uid, settings.jcmd());
      if (gets != null) {
        System.out.println("the claim GET alone: " + gets.description());
      }
      if (settings.jitWarmup() > 0) {
        warmUp(bench, driver, settings.jitWarmup());
        if (gets != null) {
          gets.run(settings.jitWarmup(), 8, 0);
        }
      }
      for (int round = 0; round < settings.rounds(); round++) {
        for (int callers : settings.callers()) {
          GoBench.Result floorRun = bench.run(floor.draSocket(), floor.pid(), settings.calls(),
              callers, false);
          GoBench.Result driverRun = bench.run(driver.draSocket(), driver.pid(),
              settings.calls(), callers, false);
          results.add(callers, driverRun, floorRun);
          String alone = "";
          if (gets != null) {
            GoBench.Result getRun = gets.run(settings.calls(), callers, settings.warmup());
            results.addGet(callers, getRun);
            alone = String.format(", GET alone %.3f ms", getRun.p50Millis());
          }
          System.err.printf("%s, round %d, %d callers: dra4j p50 %.3f ms, floor %.3f ms%s%n",
              scenario.title(), round + 1, callers, driverRun.p50Millis(),
              floorRun.p50Millis(), alone);
        }
      }
      results.memory(ProcessMemory.of(driver.pid(), settings.jcmd()));
      if (settings.profile() != null) {
        profile(settings, scenario, driver, bench);
      }
      driver.stop();
    }
    return results;
  }

  /**
   * Records the driver under each load with JFR ({@code settings=profile}) and prints its CPU
   * per call by thread.
   */
  private static void profile(ComparisonSettings settings, Scenario scenario,
      ServerProcess driver, GoBench bench) throws IOException, InterruptedException {
    for (int callers : settings.callers()) {
      String name = scenario.name().toLowerCase(Locale.ROOT) + "-" + callers + "c";
      Path recording = settings.profile().resolve(name + ".jfr");
      JvmMemory.jcmd(settings.jcmd(), driver.pid(), "JFR.start", "name=" + name,
          "settings=profile", "jdk.ExecutionSample#period=" + PROFILE_PERIOD.toMillis() + "ms",
          "filename=" + recording);
      GoBench.Result run = bench.run(driver.draSocket(), driver.pid(), settings.profileCalls(),
          callers, true);
      JvmMemory.jcmd(settings.jcmd(), driver.pid(), "JFR.stop", "name=" + name);
      System.out.printf("profile %s, %d callers (%s, JFR sampling every %s): p50 %.3f ms,"
          + " %,.0f calls/s, %.1f context switches and %.0f µs CPU per call, by thread: %s%n",
          scenario.title(), callers, recording, PROFILE_PERIOD.toMillis() + " ms",
          run.p50Millis(), run.callsPerSecond(), run.switchesPerCall(), run.cpuMicrosPerCall(),
          run.cpuByThread().entrySet().stream()
              .sorted(Map.Entry.<String, Double> comparingByValue().reversed())
              .map(e -> String.format("%s %.1f", e.getKey(), e.getValue()))
              .collect(Collectors.joining(", ")));
      System.out.print(JfrSummary.summarize(recording,
          settings.warmup() + (settings.profileCalls() / callers) * callers, PROFILE_PERIOD, 15));
      if (settings.profilePerf()) {
        try (PerfProfile perf = PerfProfile.start(driver.pid(),
            settings.profile().resolve(name + ".perf.data"), settings.jcmd())) {
          GoBench.Result sampled = bench.run(driver.draSocket(), driver.pid(),
              settings.profileCalls(), callers, false);
          System.out.printf("perf %s, %d callers: p50 %.3f ms, %.0f µs CPU per call%n",
              scenario.title(), callers, sampled.p50Millis(), sampled.cpuMicrosPerCall());
          System.out.print(perf.stop());
        }
      }
    }
  }

  /**
   * Start-up and shutdown times of several processes.
   *
   * @param registration exec to the registration socket (the floor: to its socket), ms
   * @param dra exec to the DRA socket, ms
   * @param sigterm SIGTERM to exit, ms
   */
  @SuppressWarnings("ArrayRecordComponent") // samples for statistics, never compared
  record Starts(double[] registration, double[] dra, double[] sigterm) {
    /** The medians, in the same order. */
    double[] median() {
      return new double[] {ScenarioResults.median(registration), ScenarioResults.median(dra),
          ScenarioResults.median(sigterm)};
    }

    @Override
    public String toString() {
      return Arrays.toString(Arrays.stream(registration).mapToLong(Math::round).toArray()) + " / "
          + Arrays.toString(Arrays.stream(dra).mapToLong(Math::round).toArray()) + " / "
          + Arrays.toString(Arrays.stream(sigterm).mapToLong(Math::round).toArray());
    }
  }

  /** Fresh driver processes (claim cache on, serialized), each started, checked, idle, stopped. */
  private static Starts driverStarts(ComparisonSettings settings, ServerProcess.JvmLaunch launch,
      Path root, KubeletClient kubelet, String uid) throws Exception {
    Starts starts = new Starts(new double[settings.starts()], new double[settings.starts()],
        new double[settings.starts()]);
    for (int i = 0; i < settings.starts(); i++) {
      System.err.printf("start-up %d of the driver%n", i + 1);
      try (ServerProcess driver = ServerProcess.startDriver(launch, root.resolve("s" + i),
          true, true)) {
        checkDriver(kubelet, driver, uid, settings.jcmd());
        Thread.sleep(IDLE_BEFORE_SIGTERM_MILLIS);
        starts.sigterm()[i] = driver.stop();
        starts.registration()[i] = driver.registrationMillis();
        starts.dra()[i] = driver.draSocketMillis();
      }
    }
    return starts;
  }

  /** Fresh floor processes, each started, checked, idle, stopped. */
  private static Starts floorStarts(ComparisonSettings settings, Path root, KubeletClient kubelet,
      String uid) throws Exception {
    Starts starts = new Starts(new double[settings.starts()], new double[settings.starts()],
        new double[settings.starts()]);
    for (int i = 0; i < settings.starts(); i++) {
      try (ServerProcess floor = ServerProcess.startFloor(settings.goFloor(),
          root.resolve("floor" + i + ".sock"), root.resolve("floor" + i + ".log"))) {
        checkPrepare(kubelet, floor.draSocket(), uid, "the floor");
        Thread.sleep(IDLE_BEFORE_SIGTERM_MILLIS);
        starts.sigterm()[i] = floor.stop();
        starts.registration()[i] = floor.registrationMillis();
        starts.dra()[i] = floor.draSocketMillis();
      }
    }
    return starts;
  }

  /**
   * The driver registers its DRA socket as the kubelet sees it and prepares the claim. GetInfo
   * gets the kubelet's deadline (1 s) and, as the kubelet's plugin manager retries a failed
   * registration on its next pass, {@value #GET_INFO_ATTEMPTS} attempts: on a loaded machine a
   * JVM just started can take longer for its first call, which start-up figures measure, not this
   * check. Each failed attempt is printed; after the last one the driver's threads are dumped next
   * to its log.
   */
  private static void checkDriver(KubeletClient kubelet, ServerProcess driver, String uid,
      Path jcmd) throws IOException, InterruptedException {
    Path registration = KubeletClient.registrationSockets(driver.registrationDirectory()).get(0);
    String endpoint = null;
    for (int attempt = 1; endpoint == null; attempt++) {
      try {
        endpoint = kubelet.getInfo(registration).getEndpoint();
      } catch (RuntimeException e) {
        System.err.printf("GetInfo attempt %d of %d failed: %s%n", attempt, GET_INFO_ATTEMPTS, e);
        if (attempt == GET_INFO_ATTEMPTS) {
          Path dump = driver.log().resolveSibling("getinfo-threads.txt");
          Files.writeString(dump, JvmMemory.jcmd(jcmd, driver.pid(), "Thread.print"));
          throw new IllegalStateException("the dra4j driver did not answer GetInfo (threads"
              + " right after: " + dump + ")", e);
        }
      }
    }
    if (!Path.of(endpoint).equals(driver.draSocket())) {
      throw new IllegalStateException("the driver registered " + endpoint + ", but serves "
          + driver.draSocket());
    }
    checkPrepare(kubelet, driver.draSocket(), uid, "the dra4j driver (log " + driver.log() + ")");
  }

  /** One prepare from Java: the claim's one device with its CDI ID, and no per-claim error. */
  private static void checkPrepare(KubeletClient kubelet, Path socket, String uid, String who) {
    NodePrepareResourcesResponse response = kubelet.prepare(socket,
        KubeletClient.claim("default", CLAIM, uid));
    NodePrepareResourceResponse answer = response.getClaimsMap().get(uid);
    if (answer == null || !answer.getError().isEmpty() || answer.getDevicesCount() != 1
        || !answer.getDevices(0).getCdiDeviceIdsList().equals(
            List.of(FloorPeerDriver.cdiDeviceId(uid, "gpu-0")))) {
      throw new IllegalStateException(who + " did not prepare the claim: " + response);
    }
  }

  private static void printHeader(ComparisonSettings settings, String loadBefore)
      throws IOException, InterruptedException {
    Path sdk = settings.sdkJar() != null ? settings.sdkJar()
        : Path.of(KubeletPlugin.class.getProtectionDomain().getCodeSource().getLocation()
            .getPath());
    System.out.printf("dra4j driver against the Go floor, %s%n",
        ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ISO_LOCAL_DATE_TIME
            .withZone(ZoneOffset.UTC)).replaceFirst("\\.\\d+$", "") + "Z");
    System.out.printf("machine: %d cores (%s), %s %s; load average before: %s%n",
        Runtime.getRuntime().availableProcessors(), cpuModel(), System.getProperty("os.name"),
        System.getProperty("os.version"), loadBefore);
    System.out.printf("driver JVM: %s (%s), options: %s%n", settings.java(),
        javaVersion(settings.java()), settings.jvmOptions().isEmpty() ? "none"
            : String.join(" ", settings.jvmOptions()));
    System.out.printf("driver: %s (%s) from %s (modified %s); rolling-update mode (POD_UID),"
        + " HEALTHCHECK_PORT=0 and METRICS_PORT=0 (liveness and Prometheus endpoints on),"
        + " call logging on, slf4j-simple at INFO, its one device published%s%n",
        FloorPeerDriver.class.getSimpleName(), FloorPeerDriver.NAME, sdk,
        Instant.ofEpochMilli(Files.getLastModifiedTime(sdk).toMillis()),
        settings.environment().isEmpty() ? "" : "; more environment " + settings.environment());
    System.out.printf("kubelet side: %s -n %d -warmup %d, callers %s, %d alternating rounds"
        + " (floor, dra4j) per scenario, medians; unmeasured %d-call runs warm each driver"
        + " process up until its CPU per call settles; scenarios %s%n", settings.goBench(),
        settings.calls(), settings.warmup(),
        settings.callers(), settings.rounds(), settings.jitWarmup(), settings.scenarios());
    System.out.printf("floor: %s; API server: dra4j-testing-apiserver's, in the benchmark's JVM"
        + " (%s), the driver finds it %s%n", settings.goFloor(), Runtime.version(),
        ApiServerAccess.inCluster("").describe());
  }

  /**
   * Warms a new driver process up until its JIT has compiled the call path: runs of {@code calls}
   * calls from 8 callers, at least {@link #WARM_UP_MIN_RUNS}, then repeated while the driver's CPU
   * per call still falls by 10% or more from one run to the next, at most {@link
   * #WARM_UP_RUNS}. One run was not enough on 2 cores: the first measured round still used
   * several times the CPU per call of later ones (the README's Performance section).
   */
  private static void warmUp(GoBench bench, ServerProcess driver, int calls) throws Exception {
    List<String> cpu = new ArrayList<>();
    double previous = Double.MAX_VALUE;
    for (int run = 0; run < WARM_UP_RUNS; run++) {
      double now = bench.run(driver.draSocket(), driver.pid(), calls, 8, false)
          .cpuMicrosPerCall();
      cpu.add(String.format("%.0f", now));
      if (run + 1 >= WARM_UP_MIN_RUNS && now > previous * 0.9) {
        break;
      }
      previous = now;
    }
    System.out.printf("JIT warm-up: %d runs of %d calls, the driver's CPU per call %s µs%n",
        cpu.size(), calls, String.join(", ", cpu));
  }

  /** This JVM's class path, with {@code sdk.jar} in place of the dra4j-kubeletplugin jar. */
  private static String driverClassPath(ComparisonSettings settings) {
    String classPath = ServerProcess.JvmLaunch.currentClassPath();
    if (settings.sdkJar() == null) {
      return classPath;
    }
    String sdk = Path.of(KubeletPlugin.class.getProtectionDomain().getCodeSource().getLocation()
        .getPath()).toString();
    List<String> entries = Arrays.stream(classPath.split(java.io.File.pathSeparator))
        .map(entry -> entry.equals(sdk) ? settings.sdkJar().toString() : entry).toList();
    if (!entries.contains(settings.sdkJar().toString())) {
      throw new IllegalStateException("sdk.jar: " + sdk + " is not on the class path");
    }
    return String.join(java.io.File.pathSeparator, entries);
  }

  private static String javaVersion(Path java) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(java.toString(), "-version").redirectErrorStream(true)
        .start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    process.waitFor();
    return out.lines().skip(1).collect(Collectors.joining("; "));
  }

  private static String cpuModel() throws IOException {
    return Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
        .filter(line -> line.startsWith("model name")).map(l -> l.replaceFirst(".*:\\s*", ""))
        .findFirst().orElse("unknown CPU");
  }

  private static String loadAverage() throws IOException {
    String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ", -1);
    return fields[0] + " " + fields[1] + " " + fields[2];
  }
}
