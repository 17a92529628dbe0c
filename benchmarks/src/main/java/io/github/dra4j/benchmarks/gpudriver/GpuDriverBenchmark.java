package io.github.dra4j.benchmarks.gpudriver;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.dra4j.benchmarks.kubeletplugin.ApiServerAccess;
import io.github.dra4j.benchmarks.kubeletplugin.BenchmarkClaims;
import io.github.dra4j.kubelet.wire.dra.v1.Claim;
import io.github.dra4j.kubelet.wire.dra.v1.DRAPluginGrpc;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourcesRequest;
import io.github.dra4j.kubelet.wire.dra.v1.NodeUnprepareResourcesRequest;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import io.github.dra4j.testing.kubelet.KubeletClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The reference GPU driver's executable jar ({@code examples/gpu-driver/target/gpu-driver.jar},
 * built by {@code ./mvnw install}) run as the DaemonSet runs it, with 8 simulated GPUs and the
 * JVM options of its Helm chart ({@code kubeletPlugin.jvmOptions}, read from the chart's values),
 * against an in-memory API server:
 *
 * <ul>
 *   <li>start-up: from process start to the registration socket, median and range of 5 starts,
 *       and the CPU time the driver used by then (steadier than wall time on a busy machine);
 *   <li>resident memory ({@code VmRSS}, and its file-backed part) once the devices are published,
 *       and after 1,000 prepare/unprepare cycles of one claim over the kubelet's gRPC, with what
 *       it is made of in one table ({@link DriverMemory}: heap committed, used and live,
 *       metaspace, classes and how many came from the archive, code cache, direct memory with
 *       {@code -Dnmt=true}, threads);
 *   <li>prepare latency p50 and p99 of those cycles, through the claim lifecycle with its
 *       checkpoint on disk (two fsyncs per prepare), and the driver's CPU time per cycle.
 * </ul>
 *
 * <p>The chart's options are for its image's JDK 25, so the benchmark runs on a JDK 25 ({@code
 * java.bin}, or Maven's own JVM). Its class-data archive is used with {@code -Dcds=true}; the
 * first start then serves 50 prepare/unprepare cycles, as a pod serves claims before an upgrade
 * or restart replaces it, and writes the archive as it exits; the others map it. Run: {@code JAVA_HOME=<JDK 25>
 * ./mvnw -B -q -Pbenchmarks -pl benchmarks exec:java
 * -Dexec.mainClass=io.github.dra4j.benchmarks.gpudriver.GpuDriverBenchmark -Dcds=true} (system
 * properties {@code jvm.options} to try other options, {@code java.bin} for another JVM, {@code
 * cycles}, default 1000, {@code aot} to use a JDK 25 AOT cache instead of the class-data archive,
 * {@code ports} to turn on the liveness probe's gRPC port and the metrics port as the chart's
 * defaults do (on random ports; without it the driver serves only its two sockets),
 * {@code kubeconfig} to give the driver a kubeconfig file instead of the in-cluster style
 * variables a pod's configuration comes from, {@code floor} to measure the JVM floor ({@link
 * JvmFloorRun}) the same way after the driver, and {@code nmt}, {@code histogram}, {@code threads} or {@code smaps} to print
 * the driver's native memory, live objects, threads or resident memory by mapping at the end).
 */
public final class GpuDriverBenchmark {

  /** The chart's values, whose {@code kubeletPlugin.jvmOptions} are the default options. */
  private static final String CHART_VALUES = "examples/gpu-driver/deployments/helm/dra4j-gpu-driver/values.yaml";

  private static final String DRIVER = "gpu.example.com";
  private static final Duration WAIT = Duration.ofSeconds(60);

  /** Cycles the first start serves before it stops and writes its class-data archive. */
  private static final int TRAINING_CYCLES = 50;

  private GpuDriverBenchmark() {}

  /**
   * Runs the measurements and prints them.
   *
   * @param args unused
   * @throws Exception on failure
   */
  public static void main(String[] args) throws Exception {
    Path jar = driverJar();
    List<String> options = new ArrayList<>(jvmOptions());
    Path root = Files.createTempDirectory("gpu"); // short: socket paths have a length limit
    if (Boolean.getBoolean("cds")) { // the chart's classDataSharing, for a JDK 19+ java.bin
      options.addAll(List.of("-XX:+AutoCreateSharedArchive",
          "-XX:SharedArchiveFile=" + root.resolve("jvm-classes.jsa")));
    }
    int cycles = Integer.getInteger("cycles", 1000);
    boolean nmt = Boolean.getBoolean("nmt");
    System.out.printf("GPU driver %s, 8 simulated GPUs, JVM %s, options %s, API server %s%n",
        jar, System.getProperty("java.bin", "the benchmark's own, " + Runtime.version()),
        String.join(" ", options), (Boolean.getBoolean("kubeconfig") ? "from a kubeconfig file"
            : ApiServerAccess.inCluster("").describe()));
    try (InMemoryApiServer server = InMemoryApiServer.builder().build().start();
        KubeletClient kubelet = KubeletClient.create()) {
      KubernetesClient client = server.client();
      client.nodes().resource(new NodeBuilder().withNewMetadata().withName("node")
          .endMetadata().build()).create();
      ApiServerAccess access = Boolean.getBoolean("kubeconfig")
          ? ApiServerAccess.kubeconfig(server.writeKubeconfig(root.resolve("kubeconfig")))
          : ApiServerAccess.inCluster(server.url());
      List<Double> starts = new ArrayList<>();
      List<Double> startsCpu = new ArrayList<>();
      ResourceClaim claim = BenchmarkClaims.store(client, DRIVER, "bench");
      Claim wire = KubeletClient.claim("default", "bench", claim.getMetadata().getUid());
      for (int run = 0; run < 5; run++) {
        Running driver = start(jar, withCache(options, root, run), access,
            root.resolve("r" + run));
        boolean stopped;
        try {
          starts.add(driver.startMillis());
          startsCpu.add(driver.startCpuMillis());
          if (run == 0) {
            // The first pod on a node serves claims before it is replaced; what it loaded by
            // then is what its class-data archive (written as it exits) holds for the next.
            awaitDevices(client, 8);
            cycles(kubelet, driver.draSocket(), wire, TRAINING_CYCLES);
          }
          if (run < 4) {
            continue;
          }
          awaitDevices(client, 8);
          DriverMemory started = DriverMemory.of(jcmd(), driver.process().pid(), nmt);
          diagnose(driver.process(), true);
          double cpuBefore = cpuMillis(driver.process());
          long[] prepares = cycles(kubelet, driver.draSocket(), wire, cycles);
          double cpuPerCycle = (cpuMillis(driver.process()) - cpuBefore) / cycles;
          DriverMemory after = DriverMemory.of(jcmd(), driver.process().pid(), nmt);
          diagnose(driver.process(), false);
          long live = DriverMemory.liveHeapKib(jcmd(), driver.process().pid());
          Arrays.sort(prepares);
          System.out.printf("resident memory: %s after start-up, %s after %d"
              + " prepare/unprepare cycles%n", resident(started), resident(after), cycles);
          System.out.print(DriverMemory.table(started, after, cycles, live));
          System.out.printf("prepare through the lifecycle (checkpoint on disk): p50 %.3f ms,"
              + " p99 %.3f ms%n", prepares[cycles / 2] / 1e6,
              prepares[Math.min(cycles - 1, (int) Math.round(cycles * 0.99))] / 1e6);
          System.out.printf("driver CPU per prepare/unprepare cycle: %.2f ms%n", cpuPerCycle);
        } finally {
          driver.process().destroy();
          // The first start of an AOT run writes the cache as it exits, which takes a while.
          stopped = driver.process().waitFor(run == 0 ? 300 : 30, TimeUnit.SECONDS);
        }
        // Outside the finally, so that a failure of the run itself is not hidden by this one.
        if (!stopped) {
          throw new IllegalStateException("the driver did not stop after SIGTERM; see "
              + root.resolve("r" + run).resolve("driver.log"));
        }
        client.dynamicResourceAllocation().v1().resourcesSlices().delete();
      }
      List<Double> sorted = starts.stream().sorted().toList();
      System.out.printf("start-up to the registration socket: median %.0f ms (min %.0f, max"
          + " %.0f; 5 starts, in order %s)%n", sorted.get(2), sorted.get(0), sorted.get(4),
          starts.stream().map(ms -> String.format("%.0f", ms)).toList());
      System.out.printf("CPU time used by then: median %.0f ms (in order %s)%n",
          startsCpu.stream().sorted().toList().get(2),
          startsCpu.stream().map(ms -> String.format("%.0f", ms)).toList());
      if (Boolean.getBoolean("floor")) { // the same JVM and options serving DRA from memory
        JvmFloorRun.Result floor = new JvmFloorRun(System.getProperty("java.bin",
            Path.of(System.getProperty("java.home"), "bin", "java").toString()),
            withCache(options, root, 1), root, jcmd(), nmt).measure(
                (socket, count) -> cycles(kubelet, socket, wire, count), TRAINING_CYCLES, cycles);
        System.out.printf("JVM floor (grpc-java serving DRA from memory, same JVM and options):"
            + " socket %.0f ms after exec; resident %s after start-up, %s after %d cycles%n",
            floor.startMillis(), resident(floor.started()), resident(floor.after()), cycles);
        System.out.print(DriverMemory.table(floor.started(), floor.after(), cycles,
            floor.liveKib()).replaceFirst("driver memory", "JVM floor memory"));
      }
    }
  }

  /**
   * The options of one start with {@code -Daot=true}: the first start records an AOT cache (JDK
   * 25's {@code -XX:AOTCacheOutput}, written as the JVM exits: classes loaded and linked, method
   * profiles), the others use it, as an image would ship one made at build time. Without it, the
   * options as they are.
   */
  private static List<String> withCache(List<String> options, Path root, int run) {
    if (!Boolean.getBoolean("aot")) {
      return options;
    }
    List<String> withCache = new ArrayList<>(options);
    Path cache = root.resolve("jvm.aot");
    withCache.add(run == 0 ? "-XX:AOTCacheOutput=" + cache : "-XX:AOTCache=" + cache);
    return withCache;
  }

  /**
   * Prepare/unprepare cycles of one claim over one connection, as the kubelet keeps one per
   * plugin.
   *
   * @return each prepare's latency in nanoseconds
   */
  private static long[] cycles(KubeletClient kubelet, Path socket, Claim wire, int cycles) {
    var stub = DRAPluginGrpc.newBlockingStub(kubelet.channel(socket));
    NodePrepareResourcesRequest prepare = NodePrepareResourcesRequest.newBuilder().addClaims(wire)
        .build();
    NodeUnprepareResourcesRequest unprepare = NodeUnprepareResourcesRequest.newBuilder()
        .addClaims(wire).build();
    long[] prepares = new long[cycles];
    for (int i = 0; i < cycles; i++) {
      long begin = System.nanoTime();
      String error = stub.withDeadlineAfter(45, TimeUnit.SECONDS)
          .nodePrepareResources(prepare).getClaimsOrThrow(wire.getUid()).getError();
      prepares[i] = System.nanoTime() - begin;
      if (!error.isEmpty()) {
        throw new IllegalStateException("prepare failed: " + error);
      }
      stub.withDeadlineAfter(45, TimeUnit.SECONDS).nodeUnprepareResources(unprepare);
    }
    return prepares;
  }

  /**
   * Prints what the system properties ask for: at start-up the mappings ({@code smaps}) and an
   * NMT baseline ({@code nmt}); at the end also NMT's growth since that baseline, the threads
   * ({@code threads}) and the live objects ({@code histogram}).
   */
  private static void diagnose(Process process, boolean startUp) throws IOException {
    String when = startUp ? "after start-up" : "after the cycles";
    if (Boolean.getBoolean("smaps")) { // resident memory by mapping, largest first
      System.out.println(when + ":\n" + ResidentMappings.of(process.pid()));
    }
    if (Boolean.getBoolean("nmt")) { // with -XX:NativeMemoryTracking=summary in jvm.options
      if (startUp) {
        jcmd(process, "VM.native_memory", "baseline");
      } else {
        System.out.println(jcmd(process, "VM.native_memory", "summary"));
        System.out.println("grown since start-up:\n"
            + jcmd(process, "VM.native_memory", "summary.diff"));
      }
    }
    if (startUp) {
      return;
    }
    if (Boolean.getBoolean("threads")) { // the driver's threads by name
      System.out.println(jcmd(process, "Thread.print").lines()
          .filter(line -> line.startsWith("\"")).map(line -> line.substring(0,
              line.indexOf('"', 1) + 1))
          .sorted().collect(Collectors.joining("\n")));
    }
    if (Boolean.getBoolean("histogram")) { // the live objects, largest first
      System.out.println(jcmd(process, "GC.class_histogram").lines().limit(25)
          .collect(Collectors.joining("\n")));
    }
  }

  /**
   * A started driver process.
   *
   * @param startMillis wall time from process start to the registration socket
   * @param startCpuMillis CPU time (user and system, all threads) the process used by then: on a
   *     machine other work also uses, wall time varies with it, CPU time much less
   */
  private record Running(Process process, double startMillis, double startCpuMillis,
      Path draSocket) {}

  private static Running start(Path jar, List<String> options, ApiServerAccess access, Path dir)
      throws Exception {
    Path registry = Files.createDirectories(dir.resolve("reg"));
    Path plugins = Files.createDirectories(dir.resolve("plg"));
    Path cdi = Files.createDirectories(dir.resolve("cdi"));
    List<String> command = new ArrayList<>();
    command.add(System.getProperty("java.bin",
        Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    command.addAll(options);
    command.addAll(List.of("-jar", jar.toString(), "kubelet-plugin"));
    ProcessBuilder builder = new ProcessBuilder(command);
    String podUid = UUID.randomUUID().toString();
    builder.environment().putAll(access.environment());
    builder.environment().put("NODE_NAME", "node"); // the pool BenchmarkClaims allocates from
    builder.environment().put("POD_UID", podUid);
    builder.environment().put("KUBELET_REGISTRAR_DIRECTORY_PATH", registry.toString());
    builder.environment().put("KUBELET_PLUGINS_DIRECTORY_PATH", plugins.toString());
    builder.environment().put("CDI_ROOT", cdi.toString());
    builder.environment().put("NUM_DEVICES", "8");
    builder.environment().put("MALLOC_ARENA_MAX", "2"); // as the chart sets it
    if (Boolean.getBoolean("ports")) { // the chart's defaults: liveness probe and metrics on
      builder.environment().put("HEALTHCHECK_PORT", "0"); // 0: a random free port
      builder.environment().put("METRICS_PORT", "0");
    }
    builder.redirectErrorStream(true).redirectOutput(dir.resolve("driver.log").toFile());
    long begin = System.nanoTime();
    Process process = builder.start();
    long deadline = begin + WAIT.toNanos();
    while (KubeletClient.registrationSockets(registry).isEmpty()) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        throw new IllegalStateException("the driver did not start; see "
            + dir.resolve("driver.log"));
      }
      Thread.sleep(2);
    }
    double millis = (System.nanoTime() - begin) / 1e6;
    return new Running(process, millis, cpuMillis(process),
        plugins.resolve(DRIVER).resolve("dra-" + podUid + ".sock"));
  }

  private static void awaitDevices(KubernetesClient client, int devices)
      throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (client.dynamicResourceAllocation().v1().resourcesSlices().list().getItems().stream()
        .mapToInt(s -> s.getSpec().getDevices() == null ? 0 : s.getSpec().getDevices().size())
        .sum() < devices) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("devices not published within " + WAIT);
      }
      Thread.sleep(20);
    }
  }

  private static String jcmd(Process process, String... command) throws IOException {
    List<String> line = new ArrayList<>(List.of(jcmd().toString(), Long.toString(process.pid())));
    line.addAll(List.of(command));
    return new String(new ProcessBuilder(line).redirectErrorStream(true).start()
        .getInputStream().readAllBytes(), UTF_8);
  }

  /**
   * The GPU driver's executable jar: the system property {@code gpu.driver.jar}, else the one the
   * build left in {@code examples/gpu-driver/target}.
   *
   * @return its absolute path
   * @throws IllegalStateException if it is missing
   */
  public static Path driverJar() {
    Path jar = Path.of(System.getProperty("gpu.driver.jar", repository()
        .resolve("examples/gpu-driver/target/gpu-driver.jar").toString()))
        .toAbsolutePath().normalize();
    if (!Files.exists(jar)) {
      throw new IllegalStateException(jar + " is missing: run ./mvnw -B -q install -DskipTests");
    }
    return jar;
  }

  /**
   * The JVM options to run the driver with: the system property {@code jvm.options}, else the
   * chart's {@code kubeletPlugin.jvmOptions}.
   *
   * @return the options, one per element
   * @throws IOException if the chart's values cannot be read
   */
  public static List<String> jvmOptions() throws IOException {
    String options = System.getProperty("jvm.options");
    return List.of((options != null ? options : chartJvmOptions(repository()
        .resolve(CHART_VALUES))).trim().split("\\s+"));
  }

  /** The repository's root: the working directory, or its parent when run from a module. */
  private static Path repository() {
    return Files.isDirectory(Path.of("examples")) ? Path.of("") : Path.of("..");
  }

  /**
   * The chart's {@code kubeletPlugin.jvmOptions}: the first {@code jvmOptions} of the values
   * file, which is the kubelet plugin's (the webhook's comes later).
   *
   * @param values the chart's values file
   * @return the options, separated by spaces
   * @throws IOException if the file cannot be read
   */
  public static String chartJvmOptions(Path values) throws IOException {
    Matcher matcher = Pattern.compile("(?m)^  jvmOptions: \"([^\"]*)\"$")
        .matcher(Files.readString(values));
    if (!matcher.find()) {
      throw new IllegalStateException("no kubeletPlugin.jvmOptions in " + values);
    }
    return matcher.group(1);
  }

  /** User and system CPU time of a process so far, from {@code /proc/<pid>/stat}. */
  private static double cpuMillis(Process process) throws IOException {
    String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
    // after "pid (comm) ": state is field 3, utime 14 and stime 15, in clock ticks of 10 ms
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ", -1);
    return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 10.0;
  }

  private static Path jcmd() {
    return Path.of(System.getProperty("java.home"), "bin", "jcmd");
  }

  /** Resident memory and its file-backed part (the JVM's libraries, a mapped archive). */
  private static String resident(DriverMemory memory) {
    return String.format("%.1f MiB (%.1f MiB of it file-backed)", memory.rssKib() / 1024.0,
        memory.rssFileKib() / 1024.0);
  }
}
