package io.github.dra4j.benchmarks.crash;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.cdi.name.Kind;
import io.github.dra4j.cdi.store.SpecFileName;
import io.github.dra4j.kubeletplugin.CallContext;
import io.github.dra4j.lifecycle.ClaimDriver;
import io.github.dra4j.lifecycle.PreparedClaim;
import io.github.dra4j.resourceclaim.AllocatedDevice;
import io.github.dra4j.resourceclaim.DriverAllocation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The driver of the crash tests: prepare holds each allocated device for the claim in {@link
 * DeviceHolders} and gives the container {@code GPU=<device>}; unprepare and rollback let go. It
 * can kill its own process with SIGKILL at a {@link CrashPoint}, to hit the windows between the
 * SDK's steps that a kill from outside rarely hits.
 */
public final class CrashTestDriver implements ClaimDriver<CrashTestDriver.State> {

  /** The CDI kind of its claims' specs. */
  public static final Kind KIND = Kind.of("k8s.crash.example.com", "claim");

  /**
   * What the driver stores per prepared claim.
   *
   * @param devices the devices it holds for the claim
   */
  public record State(List<String> devices) {}

  private final DeviceHolders hardware;
  private final Path cdiDirectory;
  private final Path checkpoint;
  private final Optional<CrashPoint.Plan> plan;
  private final AtomicInteger prepares = new AtomicInteger();
  private final AtomicInteger unprepares = new AtomicInteger();

  /**
   * Creates the driver.
   *
   * @param hardware its devices
   * @param cdiDirectory where the lifecycle writes the claims' CDI specs
   * @param checkpoint the lifecycle's checkpoint file
   * @param plan where to die, if anywhere
   */
  public CrashTestDriver(DeviceHolders hardware, Path cdiDirectory, Path checkpoint,
      Optional<CrashPoint.Plan> plan) {
    this.hardware = hardware;
    this.cdiDirectory = cdiDirectory;
    this.checkpoint = checkpoint;
    this.plan = plan;
  }

  @Override
  public PreparedClaim<State> prepare(DriverAllocation allocation, ResourceClaim claim,
      CallContext context) {
    int n = prepares.incrementAndGet();
    String uid = allocation.claim().uid();
    crashIf(CrashPoint.PREPARE_BEFORE_HOLD, n);
    for (AllocatedDevice device : allocation.devices()) {
      hardware.hold(device.device(), uid);
    }
    crashIf(CrashPoint.PREPARE_AFTER_HOLD, n);
    if (planned(CrashPoint.AFTER_CDI_WRITE, n) || planned(CrashPoint.AFTER_CHECKPOINT_WRITE, n)) {
      watchAndDie(uid, plan.orElseThrow().point() == CrashPoint.AFTER_CHECKPOINT_WRITE);
    }
    PreparedClaim.Builder<State> prepared = PreparedClaim.builder(
        new State(allocation.devices().stream().map(AllocatedDevice::device).toList()));
    for (AllocatedDevice device : allocation.devices()) {
      prepared.device(device, edits -> edits.env("GPU", device.device()));
    }
    return prepared.build();
  }

  @Override
  public void unprepare(DriverAllocation allocation, State state, CallContext context) {
    int n = unprepares.incrementAndGet();
    for (String device : state.devices()) {
      hardware.release(device, allocation.claim().uid());
    }
    crashIf(CrashPoint.UNPREPARE_AFTER_RELEASE, n);
  }

  @Override
  public void rollback(DriverAllocation allocation, Optional<State> state, CallContext context) {
    for (AllocatedDevice device : allocation.devices()) {
      hardware.release(device.device(), allocation.claim().uid());
    }
  }

  private boolean planned(CrashPoint point, int occurrence) {
    return plan.isPresent() && plan.get().point() == point
        && plan.get().occurrence() == occurrence;
  }

  private void crashIf(CrashPoint point, int occurrence) {
    if (planned(point, occurrence)) {
      killSelf();
    }
  }

  /**
   * Dies as soon as the claim's CDI spec appears, or, with {@code afterCheckpoint}, as soon as
   * the checkpoint is replaced after that: the windows after the driver returned.
   */
  private void watchAndDie(String uid, boolean afterCheckpoint) {
    Path spec = cdiDirectory.resolve(SpecFileName.forTransientSpec(KIND, uid).value());
    Thread watcher = new Thread(() -> {
      long deadline = System.nanoTime() + 10_000_000_000L;
      Object before = fileKey(checkpoint);
      while (!Files.exists(spec) && System.nanoTime() < deadline) {
        Thread.onSpinWait();
      }
      if (afterCheckpoint) {
        while (Objects.equals(before, fileKey(checkpoint)) && System.nanoTime() < deadline) {
          Thread.onSpinWait();
        }
      }
      killSelf();
    }, "crash-watcher");
    watcher.setDaemon(true);
    watcher.start();
  }

  private static Object fileKey(Path file) {
    try {
      return Files.readAttributes(file, BasicFileAttributes.class).fileKey();
    } catch (IOException e) {
      return null;
    }
  }

  /** SIGKILL to this process, as the OOM killer or a node problem would send it. */
  static void killSelf() {
    try {
      new ProcessBuilder("kill", "-KILL", String.valueOf(ProcessHandle.current().pid()))
          .start();
      Thread.sleep(60_000);
    } catch (IOException | InterruptedException e) {
      Runtime.getRuntime().halt(137);
    }
    Runtime.getRuntime().halt(137);
  }
}
