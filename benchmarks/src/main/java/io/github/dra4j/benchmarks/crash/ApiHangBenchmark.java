package io.github.dra4j.benchmarks.crash;

import com.google.common.util.concurrent.ListenableFuture;
import io.github.dra4j.benchmarks.gpudriver.GpuDriverBenchmark;
import io.github.dra4j.kubelet.wire.dra.v1.Claim;
import io.github.dra4j.kubelet.wire.dra.v1.DRAPluginGrpc;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourcesRequest;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourcesResponse;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import io.github.dra4j.testing.kubelet.KubeletClient;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A hung API server attacking the crash-test driver process (the claim lifecycle, as the reference
 * driver runs it) under the JVM options of the reference driver's chart: the API server accepts
 * connections and never answers, and the kubelet sends many prepares of new claims at once with
 * its 45 s deadline. Prints how the calls were answered (refused at once, or failed at their
 * deadline), how an unprepare and a prepare of a prepared claim fared meanwhile, the requests the
 * API server held, the driver's threads and resident memory before, during and after, and how
 * soon new claims were prepared once the API server answered again.
 *
 * <p>Run with the test class path, {@code -Djava.bin=<a JDK 25 java>} when the chart's options
 * need it (its compact object headers), optional arguments: prepares at once (default 200), hang
 * seconds (default 50). {@code -Djvm.options} replaces the chart's options.
 */
public final class ApiHangBenchmark {

  private ApiHangBenchmark() {}

  /**
   * Runs the attack and prints the figures.
   *
   * @param args optional: prepares at once, hang seconds
   * @throws Exception if the harness fails
   */
  public static void main(String[] args) throws Exception {
    int attackers = args.length > 0 ? Integer.parseInt(args[0]) : 200;
    long hangSeconds = args.length > 1 ? Long.parseLong(args[1]) : 50;
    Path repository = Files.isDirectory(Path.of("examples")) ? Path.of("") : Path.of("..");
    List<String> java = new ArrayList<>(List.of(System.getProperty("java.bin",
        Path.of(System.getProperty("java.home"), "bin", "java").toString())));
    String options = System.getProperty("jvm.options", GpuDriverBenchmark.chartJvmOptions(
        repository.resolve("examples/gpu-driver/deployments/helm/dra4j-gpu-driver/values.yaml")));
    java.addAll(List.of(options.trim().split("\\s+")));
    Path root = Files.createTempDirectory("hang");
    try (InMemoryApiServer server = InMemoryApiServer.builder().build().start();
        KubeletClient kubelet = KubeletClient.create()) {
      CrashHarness.Layout layout = new CrashHarness.Layout(root,
          Files.createDirectories(root.resolve("registry")),
          Files.createDirectories(root.resolve("plugins")),
          Files.createDirectories(root.resolve("cdi")), root.resolve("hardware"),
          root.resolve("boot_id"), server.writeKubeconfig(root.resolve("kubeconfig")));
      Files.writeString(layout.bootId(), "boot-1\n");
      DriverInstance driver = new DriverInstance(layout, null, java);
      driver.start(Optional.empty());
      try {
        System.out.printf("driver process: %s%n", String.join(" ", java));
        run(server, kubelet, driver, attackers, hangSeconds);
      } finally {
        driver.stop();
      }
    }
  }

  private static void run(InMemoryApiServer server, KubeletClient kubelet, DriverInstance driver,
      int attackers, long hangSeconds) throws Exception {
    Claim running = claim(server, "running", "gpu-running");
    Claim stopping = claim(server, "stopping", "gpu-stopping");
    check(kubelet.prepare(driver.draSocket(), running), running);
    check(kubelet.prepare(driver.draSocket(), stopping), stopping);
    List<Claim> fresh = new ArrayList<>();
    for (int i = 0; i < attackers; i++) {
      fresh.add(claim(server, "new-" + i, "gpu-" + i));
    }
    ProcessFigures idle = ProcessFigures.of(driver.pid());

    server.hangAll();
    long hangStart = System.nanoTime();
    DRAPluginGrpc.DRAPluginFutureStub stub = DRAPluginGrpc
        .newFutureStub(kubelet.channel(driver.draSocket()))
        .withDeadlineAfter(KubeletClient.NODE_CALL_TIMEOUT.toNanos(), TimeUnit.NANOSECONDS);
    List<ListenableFuture<NodePrepareResourcesResponse>> calls = new ArrayList<>();
    List<long[]> answeredAt = new ArrayList<>();
    for (Claim claim : fresh) {
      ListenableFuture<NodePrepareResourcesResponse> call = stub.nodePrepareResources(
          NodePrepareResourcesRequest.newBuilder().addClaims(claim).build());
      long[] at = {0};
      call.addListener(() -> at[0] = System.nanoTime(), Runnable::run);
      calls.add(call);
      answeredAt.add(at);
    }
    long settleBy = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < settleBy
        && server.hungRequests()
            + calls.stream().filter(ListenableFuture::isDone).count() < attackers) {
      Thread.sleep(20);
    }
    ProcessFigures during = ProcessFigures.of(driver.pid());
    int held = server.hungRequests();
    String unprepare = timed(() -> kubelet.unprepare(driver.draSocket(), stopping)
        .getClaimsOrThrow(stopping.getUid()).getError());
    String reprepare = timed(() -> kubelet.prepare(driver.draSocket(), running)
        .getClaimsOrThrow(running.getUid()).getError());
    Map<String, List<Long>> outcomes = new TreeMap<>();
    for (int i = 0; i < calls.size(); i++) {
      String outcome = outcome(calls.get(i));
      outcomes.computeIfAbsent(outcome, o -> new ArrayList<>())
          .add((answeredAt.get(i)[0] - hangStart) / 1_000_000);
    }
    ProcessFigures deadlinePassed = ProcessFigures.of(driver.pid());
    long sleep = TimeUnit.SECONDS.toMillis(hangSeconds)
        - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - hangStart);
    if (sleep > 0) {
      Thread.sleep(sleep);
    }

    server.clearHangs();
    long recovered = System.nanoTime();
    int prepared = 0;
    for (Claim claim : fresh) {
      NodePrepareResourcesResponse answer = kubelet.prepare(driver.draSocket(), claim);
      prepared += answer.getClaimsOrThrow(claim.getUid()).getError().isEmpty() ? 1 : 0;
    }
    long allPrepared = (System.nanoTime() - recovered) / 1_000_000;
    ProcessFigures after = ProcessFigures.of(driver.pid());

    System.out.printf(Locale.ROOT, "%d prepares of new claims at once, API server hung for %d s"
        + " (every request read, none answered)%n", attackers, hangSeconds);
    System.out.printf(Locale.ROOT, "  requests the API server held: %d%n", held);
    outcomes.forEach((outcome, millis) -> System.out.printf(Locale.ROOT,
        "  %d answered %s, after %s%n", millis.size(), outcome, spread(millis)));
    System.out.printf(Locale.ROOT, "  meanwhile: unprepare of a prepared claim %s; prepare of a"
        + " prepared claim %s%n", unprepare, reprepare);
    System.out.printf(Locale.ROOT, "  driver process: idle %s; hung %s; after the deadlines %s;"
        + " recovered %s%n", idle, during, deadlinePassed, after);
    System.out.printf(Locale.ROOT, "  after the API server answered again: %d of %d new claims"
        + " prepared, one after the other, in %d ms%n", prepared, attackers, allPrepared);
  }

  /** How a call fared, and how long it took. */
  private static String timed(Supplier<String> call) {
    long start = System.nanoTime();
    String outcome;
    try {
      String error = call.get();
      outcome = error.isEmpty() ? "answered without error" : "answered with error " + error;
    } catch (StatusRuntimeException e) {
      outcome = "failed with " + e.getStatus().getCode() + ": " + e.getStatus().getDescription();
    }
    return String.format(Locale.ROOT, "%s in %d ms", outcome,
        (System.nanoTime() - start) / 1_000_000);
  }

  private static String outcome(ListenableFuture<NodePrepareResourcesResponse> call)
      throws InterruptedException {
    try {
      NodePrepareResourcesResponse answer = call.get();
      String error = answer.getClaimsMap().values().iterator().next().getError();
      if (error.isEmpty()) {
        return "ok";
      }
      // The claim's own name and the last try's error left out, so that equal outcomes group.
      int at = error.indexOf("no answer from the API server");
      if (at < 0) {
        return "with the claim error " + error;
      }
      int end = error.indexOf(';', at);
      return "with the claim error \"...: " + error.substring(at, end < 0 ? error.length() : end)
          + "\"";
    } catch (ExecutionException e) {
      Status status = Status.fromThrowable(e.getCause());
      return status.getCode() + ": " + status.getDescription();
    }
  }

  private static String spread(List<Long> millis) {
    List<Long> sorted = millis.stream().sorted().toList();
    return String.format(Locale.ROOT, "%d ms (p50), %d ms (max)", sorted.get(sorted.size() / 2),
        sorted.get(sorted.size() - 1));
  }

  private static Claim claim(InMemoryApiServer server, String name, String device) {
    return KubeletClient.claim("default", name, CrashClaims.allocated(server, name, device));
  }

  private static void check(NodePrepareResourcesResponse answer, Claim claim) {
    String error = answer.getClaimsOrThrow(claim.getUid()).getError();
    if (!error.isEmpty()) {
      throw new IllegalStateException("prepare of " + claim.getName() + " failed: " + error);
    }
  }
}
