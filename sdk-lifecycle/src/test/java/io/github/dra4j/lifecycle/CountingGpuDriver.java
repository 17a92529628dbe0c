package io.github.dra4j.lifecycle;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.kubeletplugin.CallContext;
import io.github.dra4j.resourceclaim.AllocatedDevice;
import io.github.dra4j.resourceclaim.DriverAllocation;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/**
 * A per-claim driver whose hardware is a {@link CountingHardware} file: prepare holds each
 * allocated device for the claim and gives the container {@code GPU_<n>=<device>}, unprepare and
 * rollback let go. It records its calls, and can be told to fail the prepare of chosen claims
 * after holding their devices (work half done).
 */
public final class CountingGpuDriver implements ClaimDriver<CountingGpuDriver.State> {

  /**
   * What the driver stores per prepared claim.
   *
   * @param devices the devices it holds
   * @param note something only the driver knows
   */
  public record State(List<String> devices, String note) {}

  private final CountingHardware hardware;
  private final List<String> calls = new CopyOnWriteArrayList<>();
  private final List<String> errors = new CopyOnWriteArrayList<>();
  private volatile Predicate<String> failAfterHolding = name -> false;
  private volatile Runnable afterRelease = () -> {};

  /**
   * Uses a hardware file.
   *
   * @param hardware the hardware
   */
  public CountingGpuDriver(CountingHardware hardware) {
    this.hardware = hardware;
  }

  /**
   * Makes prepare fail, after holding the devices, for claims whose name matches.
   *
   * @param claimNames which claims
   * @return this driver
   */
  public CountingGpuDriver failingAfterHolding(Predicate<String> claimNames) {
    this.failAfterHolding = claimNames;
    return this;
  }

  /**
   * Runs an action in every unprepare, after the devices were let go: a fault between the
   * driver's undo and the SDK's record of it (a full disk, a kill).
   *
   * @param action what to do
   * @return this driver
   */
  public CountingGpuDriver afterRelease(Runnable action) {
    this.afterRelease = action;
    return this;
  }

  /**
   * The calls so far, as {@code <operation> <claim name>}.
   *
   * @return the calls
   */
  public List<String> calls() {
    return List.copyOf(calls);
  }

  /**
   * The messages of the errors reported to the driver.
   *
   * @return the messages in order
   */
  public List<String> errors() {
    return List.copyOf(errors);
  }

  @Override
  public void handleError(Throwable error, String message) {
    errors.add(message);
  }

  @Override
  public PreparedClaim<State> prepare(DriverAllocation allocation, ResourceClaim claim,
      CallContext context) {
    String name = allocation.claim().name();
    calls.add("prepare " + name);
    for (AllocatedDevice device : allocation.devices()) {
      hardware.hold(device.device(), allocation.claim().uid());
    }
    if (failAfterHolding.test(name)) {
      throw new IllegalStateException("GPU firmware did not answer for " + name);
    }
    PreparedClaim.Builder<State> prepared = PreparedClaim.builder(); // devices first
    int n = 0;
    for (AllocatedDevice device : allocation.devices()) {
      int index = n++;
      prepared.device(device, edits -> edits.env("GPU_" + index, device.device()));
    }
    return prepared.state(new State(allocation.devices().stream().map(AllocatedDevice::device)
        .toList(), "note-" + name)).build();
  }

  @Override
  public void unprepare(DriverAllocation allocation, State state, CallContext context) {
    calls.add("unprepare " + allocation.claim().name() + " " + state.note());
    for (String device : state.devices()) {
      hardware.release(device, allocation.claim().uid());
    }
    afterRelease.run();
  }

  @Override
  public void rollback(DriverAllocation allocation, Optional<State> state,
      CallContext context) {
    calls.add("rollback " + allocation.claim().name());
    for (AllocatedDevice device : allocation.devices()) {
      hardware.release(device.device(), allocation.claim().uid());
    }
  }
}
