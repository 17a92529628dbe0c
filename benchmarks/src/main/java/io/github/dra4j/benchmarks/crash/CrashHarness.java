package io.github.dra4j.benchmarks.crash;

import io.github.dra4j.kubelet.wire.dra.v1.Claim;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourcesResponse;
import io.github.dra4j.kubelet.wire.dra.v1.NodeUnprepareResourcesResponse;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import io.github.dra4j.testing.kubelet.KubeletClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Drives the crash-test driver process as a kubelet would, through prepare/unprepare cycles of
 * claims, while killing it with SIGKILL at random moments and at planned {@link CrashPoint}s,
 * restarting the kubelet (it prepares every running claim again), rebooting the node (new boot
 * ID, CDI directory wiped, hardware reset) and letting the API server hang or answer 500 ({@code
 * ApiFaults}, with how calls fared meanwhile in {@link ApiFaultLog}). At the end the calls still
 * owed are retried until they succeed, as the kubelet retries, and {@link Invariants} checks that
 * nothing was lost, doubled or left behind.
 *
 * <p>The kubelet's view is the truth a driver must honour: a claim whose prepare succeeded is in
 * use by a container until its unprepare succeeds; a claim whose unprepare succeeded is gone.
 * Claims are allocated one device each, never a device another unfinished claim holds, as the
 * scheduler guarantees. Single-threaded; owns the API server, the processes and the directories.
 */
public final class CrashHarness implements AutoCloseable {

  /** Where everything lives. */
  record Layout(Path root, Path registry, Path data, Path cdi, Path hardware, Path bootId,
      Path kubeconfig) {}

  /** What the kubelet believes of a claim. */
  enum Seen {
    PREPARING, PREPARED, UNPREPARING, UNPREPARED
  }

  private final CrashSettings settings;
  private final Random random;
  private final Layout layout;
  private final InMemoryApiServer server;
  private final KubeletClient kubelet = KubeletClient.create();
  private final List<DriverInstance> instances = new ArrayList<>();
  private final Map<String, Seen> seen = new LinkedHashMap<>();
  private final Map<String, String> deviceOf = new LinkedHashMap<>();
  private final Map<String, String> nameOf = new LinkedHashMap<>();
  private final ScheduledExecutorService killer = Executors.newSingleThreadScheduledExecutor();
  private final ApiFaults apiFaults;
  private final CrashReport.Counter count = new CrashReport.Counter();
  private int boot = 1;
  private boolean calm;

  /**
   * Sets up the API server and the directories; no process runs yet.
   *
   * @param root an empty directory
   * @param settings what the run does
   * @throws IOException if the directories cannot be made
   */
  public CrashHarness(Path root, CrashSettings settings) throws IOException {
    this.settings = settings;
    this.random = new Random(settings.seed());
    this.server = InMemoryApiServer.builder().build().start();
    this.apiFaults = new ApiFaults(server, random, killer, settings.apiFaultChance(),
        settings.longHangChance());
    Path kubeconfig = server.writeKubeconfig(root.resolve("kubeconfig"));
    this.layout = new Layout(root, Files.createDirectories(root.resolve("registry")),
        Files.createDirectories(root.resolve("plugins")), Files.createDirectories(root.resolve(
            "cdi")),
        root.resolve("hardware"), root.resolve("boot_id"), kubeconfig);
    Files.writeString(layout.bootId(), "boot-1\n");
    if (settings.rollingUpdate()) {
      instances.add(new DriverInstance(layout, "pod-a"));
      instances.add(new DriverInstance(layout, "pod-b"));
    } else {
      instances.add(new DriverInstance(layout, null));
    }
  }

  /**
   * Runs the cycles, settles, and checks.
   *
   * @return the counts and the invariant violations
   * @throws Exception if the harness itself fails (not the driver)
   */
  public CrashReport run() throws Exception {
    long started = System.nanoTime();
    for (DriverInstance instance : instances) {
      instance.start(Optional.empty());
    }
    while (count.cycles < settings.cycles()) {
      step();
    }
    settle();
    Invariants.Findings findings = new Invariants(layout, new DeviceHolders(layout.hardware()))
        .check(seen, deviceOf);
    return count.report(settings, findings,
        seen.values().stream().filter(s -> s == Seen.PREPARED).count(),
        (System.nanoTime() - started) / 1_000_000, apiFaults.log());
  }

  private void step() throws Exception {
    apiFaults.maybeBegin();
    double dice = random.nextDouble();
    if (dice < settings.rebootChance()) {
      reboot();
      return;
    }
    if (dice < settings.rebootChance() + settings.kubeletRestartChance()) {
      count.kubeletRestarts++;
      prepare(claimsSeen(Seen.PREPARED)); // the kubelet prepares running claims again
      return;
    }
    List<String> pending = Stream.concat(claimsSeen(Seen.PREPARING).stream(),
        claimsSeen(Seen.UNPREPARING).stream()).toList();
    List<String> prepared = claimsSeen(Seen.PREPARED);
    int action = random.nextInt(10);
    if (!pending.isEmpty() && action < 3) {
      String uid = pending.get(random.nextInt(pending.size()));
      if (seen.get(uid) == Seen.PREPARING && random.nextInt(8) == 0) {
        seen.put(uid, Seen.UNPREPARING); // the pod was deleted before it ever ran
      }
      call(List.of(uid));
    } else if (!prepared.isEmpty() && (action < 6 || freeDevice().isEmpty())) {
      List<String> batch = pick(prepared, 1 + random.nextInt(3));
      batch.forEach(uid -> seen.put(uid, Seen.UNPREPARING));
      call(batch);
    } else if (freeDevice().isPresent()) {
      List<String> batch = new ArrayList<>();
      for (int i = 1 + random.nextInt(3); i > 0 && freeDevice().isPresent(); i--) {
        batch.add(newClaim(freeDevice().get()));
      }
      call(batch);
    } else if (!pending.isEmpty()) {
      call(List.of(pending.get(0)));
    }
  }

  private List<String> pick(List<String> from, int n) {
    List<String> copy = new ArrayList<>(from);
    java.util.Collections.shuffle(copy, random);
    return copy.subList(0, Math.min(n, copy.size()));
  }

  private List<String> claimsSeen(Seen state) {
    return seen.entrySet().stream().filter(e -> e.getValue() == state).map(Map.Entry::getKey)
        .toList();
  }

  private Optional<String> freeDevice() {
    List<String> busy = seen.entrySet().stream().filter(e -> e.getValue() != Seen.UNPREPARED)
        .map(e -> deviceOf.get(e.getKey())).toList();
    for (int i = 0; i < settings.devices(); i++) {
      if (!busy.contains("gpu-" + i)) {
        return Optional.of("gpu-" + i);
      }
    }
    return Optional.empty();
  }

  private String newClaim(String device) {
    String name = "c" + (nameOf.size() + 1);
    String uid = CrashClaims.allocated(server, name, device);
    seen.put(uid, Seen.PREPARING);
    deviceOf.put(uid, device);
    nameOf.put(uid, name);
    return uid;
  }

  /** One kubelet call for claims that all want the same thing; some calls get a SIGKILL. */
  private void call(List<String> uids) throws Exception {
    List<String> toPrepare = uids.stream().filter(u -> seen.get(u) == Seen.PREPARING).toList();
    List<String> toUnprepare = uids.stream().filter(u -> seen.get(u) == Seen.UNPREPARING)
        .toList();
    prepare(toPrepare);
    unprepare(toUnprepare);
  }

  private void prepare(List<String> uids) throws Exception {
    if (uids.isEmpty()) {
      return;
    }
    DriverInstance instance = anyInstance();
    count.calls++;
    ApiFaultLog.Fault fault = apiFaults.current();
    ApiFaultLog.Kind kind = uids.stream().anyMatch(u -> seen.get(u) != Seen.PREPARED)
        ? ApiFaultLog.Kind.NEW_PREPARE : ApiFaultLog.Kind.REPEATED_PREPARE;
    NodePrepareResourcesResponse answer = null;
    long start = System.nanoTime();
    String result;
    try (KillWindow ignored = maybeKill(instance, fault)) {
      answer = kubelet.prepare(instance.draSocket(), wire(uids));
      result = ApiFaultLog.result(answer.getClaimsMap().values().stream()
          .map(c -> c.getError()).toList());
    } catch (RuntimeException callFailed) {
      count.failedCalls++;
      result = !instance.died() ? ApiFaultLog.failure(callFailed)
          : "the driver process died under it (a planned crash)";
    }
    if (fault != null) {
      apiFaults.log().call(fault, kind, result, System.nanoTime() - start);
    }
    for (String uid : uids) {
      if (answer == null || !answer.containsClaims(uid)) {
        continue;
      }
      String error = answer.getClaimsOrThrow(uid).getError();
      if (error.isEmpty()) {
        seen.put(uid, Seen.PREPARED);
      } else if (seen.get(uid) == Seen.PREPARED) {
        // A claim in use must always prepare again: this is a lost preparation.
        count.reprepareErrors.add(nameOf.get(uid) + ": " + error);
      }
    }
    restartDead();
  }

  private void unprepare(List<String> uids) throws Exception {
    if (uids.isEmpty()) {
      return;
    }
    DriverInstance instance = anyInstance();
    count.calls++;
    ApiFaultLog.Fault fault = apiFaults.current();
    NodeUnprepareResourcesResponse answer = null;
    long start = System.nanoTime();
    String result;
    try (KillWindow ignored = maybeKill(instance, fault)) {
      answer = kubelet.unprepare(instance.draSocket(), wire(uids));
      result = ApiFaultLog.result(answer.getClaimsMap().values().stream()
          .map(c -> c.getError()).toList());
    } catch (RuntimeException callFailed) {
      count.failedCalls++;
      result = !instance.died() ? ApiFaultLog.failure(callFailed)
          : "the driver process died under it (a planned crash)";
    }
    if (fault != null) {
      apiFaults.log().call(fault, ApiFaultLog.Kind.UNPREPARE, result,
          System.nanoTime() - start);
    }
    for (String uid : uids) {
      if (answer != null && answer.containsClaims(uid)
          && answer.getClaimsOrThrow(uid).getError().isEmpty()) {
        seen.put(uid, Seen.UNPREPARED);
        count.cycles++;
      }
    }
    restartDead();
  }

  private Claim[] wire(List<String> uids) {
    return uids.stream().map(uid -> KubeletClient.claim("default", nameOf.get(uid), uid))
        .toArray(Claim[]::new);
  }

  private DriverInstance anyInstance() {
    return instances.get(random.nextInt(instances.size()));
  }

  /** A scheduled SIGKILL during the call, cancelled when the call is over. */
  private interface KillWindow extends AutoCloseable {
    @Override
    void close();
  }

  /** No kill while the API server is at fault, so that the fault's figures are its own. */
  private KillWindow maybeKill(DriverInstance instance, ApiFaultLog.Fault fault) {
    if (calm || fault != null || random.nextDouble() >= settings.killChance()) {
      return () -> {};
    }
    long delayMicros = random.nextInt(15_000);
    // Bound to this process: if it dies of a planned crash and is restarted before the kill
    // runs, the kill must not hit the new one while it starts.
    ScheduledFuture<?> kill = killer.schedule(instance.killLater(), delayMicros,
        TimeUnit.MICROSECONDS);
    return () -> kill.cancel(false);
  }

  private void restartDead() throws Exception {
    for (DriverInstance instance : instances) {
      if (!instance.isAlive()) {
        count.restarts++;
        Optional<CrashPoint.Plan> plan = Optional.empty();
        if (!calm && random.nextDouble() < settings.planChance()) {
          CrashPoint[] points = CrashPoint.values();
          plan = Optional.of(new CrashPoint.Plan(points[random.nextInt(points.length)],
              1 + random.nextInt(2)));
          count.planned++;
        }
        try {
          instance.start(plan);
        } catch (DriverInstance.DiedAtPlannedPoint crashedInRepair) {
          // A crash in the start-up repair, as planned: the next start has no plan.
          count.restarts++;
          instance.start(Optional.empty());
        }
      }
    }
  }

  /** A reboot: every process dies, the boot ID changes, tmpfs and hardware forget. */
  private void reboot() throws Exception {
    count.reboots++;
    for (DriverInstance instance : instances) {
      instance.kill();
    }
    boot++;
    Files.writeString(layout.bootId(), "boot-" + boot + "\n");
    try (Stream<Path> files = Files.list(layout.cdi())) {
      for (Path file : files.toList()) {
        Files.delete(file);
      }
    }
    new DeviceHolders(layout.hardware()).reset();
    for (DriverInstance instance : instances) {
      instance.start(Optional.empty());
    }
    // The kubelet starts again and prepares the claims of the pods that run again.
    prepare(claimsSeen(Seen.PREPARED));
  }

  /** No more faults: every owed call is retried until it succeeds, as the kubelet does. */
  private void settle() throws Exception {
    calm = true;
    apiFaults.end();
    for (DriverInstance instance : instances) {
      if (!instance.isAlive()) {
        instance.start(Optional.empty());
      }
    }
    for (int round = 0; round < 50; round++) {
      List<String> owed = Stream.concat(claimsSeen(Seen.PREPARING).stream(),
          claimsSeen(Seen.UNPREPARING).stream()).toList();
      if (owed.isEmpty()) {
        break;
      }
      for (String uid : owed) {
        call(List.of(uid));
      }
      restartDead();
    }
    prepare(claimsSeen(Seen.PREPARED)); // one last kubelet restart: every answer still holds
  }

  @Override
  public void close() throws Exception {
    killer.shutdownNow();
    apiFaults.end();
    for (DriverInstance instance : instances) {
      instance.stop();
    }
    kubelet.close();
    server.close();
  }
}
