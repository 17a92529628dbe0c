package io.github.dra4j.kubeletplugin.internal.status;

import io.fabric8.kubernetes.api.model.resource.v1.AllocatedDeviceStatus;
import io.fabric8.kubernetes.api.model.resource.v1.AllocatedDeviceStatusBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.github.dra4j.core.thread.DaemonThreads;
import io.github.dra4j.kubeletplugin.ClaimStatusReporter;
import io.github.dra4j.kubeletplugin.RecoverableException;
import io.github.dra4j.resourceclaim.AllocatedDevice;
import io.github.dra4j.resourceclaim.ClaimReference;
import io.github.dra4j.resourceclaim.DriverAllocation;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BiConsumer;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes this driver's entries of {@code status.devices[]} with read-merge-write and retries on
 * conflict (up to {@value #ATTEMPTS} tries with random, growing pauses), one write at a time on
 * its own thread. Owned by one plugin, which closes it.
 */
public final class ClaimStatusWriter implements ClaimStatusReporter, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ClaimStatusWriter.class);
  /** How many times a write is tried when other writers keep winning. */
  static final int ATTEMPTS = 10;
  /** The longest pause between two tries. */
  private static final long MAX_BACKOFF_MILLIS = 1000;

  private final String driverName;
  private final Supplier<KubernetesClient> client;
  private final BiConsumer<Throwable, String> errors;
  private final ExecutorService executor;

  /**
   * A writer.
   *
   * @param driverName the driver whose entries are written
   * @param client the API client (borrowed), asked for at each write
   * @param errors where failed writes are reported
   */
  public ClaimStatusWriter(String driverName, Supplier<KubernetesClient> client,
      BiConsumer<Throwable, String> errors) {
    this.driverName = driverName;
    this.client = client;
    this.errors = errors;
    this.executor = Executors.newSingleThreadExecutor(
        new DaemonThreads("dra4j-claim-status-" + driverName));
  }

  @Override
  public CompletableFuture<Void> report(ResourceClaim claim, List<AllocatedDeviceStatus> devices) {
    Objects.requireNonNull(claim, "claim");
    DriverAllocation allocation = DriverAllocation.of(claim, driverName);
    List<AllocatedDeviceStatus> entries = new ArrayList<>();
    for (AllocatedDeviceStatus device : devices) {
      entries.add(checked(device, allocation));
    }
    ClaimReference ref = allocation.claim();
    Set<String> keys = entries.stream().map(ClaimStatusWriter::key).collect(Collectors.toSet());
    return submit(ref, "report the status of " + entries.size() + " device(s)",
        entry -> driverName.equals(entry.getDriver()) && keys.contains(key(entry)), entries);
  }

  @Override
  public CompletableFuture<Void> clear(ClaimReference claim) {
    Objects.requireNonNull(claim, "claim");
    return submit(claim, "remove the device status", entry -> driverName.equals(
        entry.getDriver()), List.of());
  }

  /** Stops writing; writes not yet made are dropped. */
  @Override
  public void close() {
    executor.shutdownNow();
  }

  private AllocatedDeviceStatus checked(AllocatedDeviceStatus device,
      DriverAllocation allocation) {
    Objects.requireNonNull(device, "device status");
    String driver = device.getDriver();
    if (driver != null && !driver.isEmpty() && !driver.equals(driverName)) {
      throw new IllegalArgumentException("device status names driver \"" + driver
          + "\"; this plugin writes only driver " + driverName);
    }
    boolean allocated = allocation.devices().stream().anyMatch(d -> matches(d, device));
    if (!allocated) {
      throw new IllegalArgumentException("device status for pool \"" + device.getPool()
          + "\", device \"" + device.getDevice() + "\""
          + (device.getShareID() == null ? "" : ", share \"" + device.getShareID() + "\"")
          + ": not one of driver " + driverName + "'s devices in claim "
          + allocation.claim().namespacedName());
    }
    return new AllocatedDeviceStatusBuilder(device).withDriver(driverName).build();
  }

  private static boolean matches(AllocatedDevice allocated, AllocatedDeviceStatus status) {
    return allocated.pool().equals(status.getPool())
        && allocated.device().equals(status.getDevice())
        && Objects.equals(allocated.shareId(), emptyToNull(status.getShareID()));
  }

  private static String key(AllocatedDeviceStatus entry) {
    return entry.getPool() + "/" + entry.getDevice() + "/"
        + Objects.toString(emptyToNull(entry.getShareID()), "");
  }

  private static String emptyToNull(String value) {
    return value == null || value.isEmpty() ? null : value;
  }

  private CompletableFuture<Void> submit(ClaimReference ref, String what,
      Predicate<AllocatedDeviceStatus> replaced, List<AllocatedDeviceStatus> added) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    try {
      executor.execute(() -> {
        try {
          write(ref, replaced, added);
          done.complete(null);
        } catch (RuntimeException e) {
          String message = what + " of claim " + ref.namespacedName() + ": " + e.getMessage();
          LOG.warn("Cannot {}", message);
          errors.accept(new RecoverableException(e), "cannot " + message);
          done.completeExceptionally(e);
        }
      });
    } catch (RejectedExecutionException e) {
      done.completeExceptionally(new IllegalStateException("the plugin is closed", e));
    }
    return done;
  }

  /**
   * Waits a random time up to 10 ms doubled per failed try (at most a second), so that writers
   * racing for the same claim fall out of step instead of colliding again.
   */
  private static void backOff(int attempt) {
    long bound = Math.min(MAX_BACKOFF_MILLIS, 10L << Math.min(attempt, 10));
    try {
      Thread.sleep(ThreadLocalRandom.current().nextLong(1, bound + 1));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while writing the status", e);
    }
  }

  /** Reads, merges and writes until the write is not refused for a conflict. */
  private void write(ClaimReference ref, Predicate<AllocatedDeviceStatus> replaced,
      List<AllocatedDeviceStatus> added) {
    for (int attempt = 1; ; attempt++) {
      ResourceClaim current = client.get().resources(ResourceClaim.class)
          .inNamespace(ref.namespace()).withName(ref.name()).get();
      if (current == null || !ref.uid().equals(current.getMetadata().getUid())) {
        if (added.isEmpty()) {
          return; // nothing to remove from a claim that is gone
        }
        throw new IllegalStateException("the claim is gone or was replaced");
      }
      List<AllocatedDeviceStatus> old = current.getStatus() == null
          || current.getStatus().getDevices() == null ? List.of()
          : current.getStatus().getDevices();
      List<AllocatedDeviceStatus> merged = new ArrayList<>();
      old.stream().filter(replaced.negate()).forEach(merged::add);
      merged.addAll(added);
      if (merged.equals(old)) {
        return;
      }
      current.getStatus().setDevices(merged);
      try {
        client.get().resource(current).updateStatus();
        return;
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409 || attempt >= ATTEMPTS) {
          throw new IllegalStateException("writing resourceclaims/status failed: HTTP "
              + e.getCode() + " " + e.getMessage(), e);
        }
        LOG.debug("status of claim {} changed while writing; trying again", ref);
        backOff(attempt);
      }
    }
  }
}
