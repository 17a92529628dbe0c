package io.github.dra4j.kubeletplugin.internal.status;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.resource.v1.AllocatedDeviceStatus;
import io.fabric8.kubernetes.api.model.resource.v1.AllocatedDeviceStatusBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.github.dra4j.core.thread.DaemonThreads;
import io.github.dra4j.kubeletplugin.ClaimStatusReporter;
import io.github.dra4j.kubeletplugin.RecoverableException;
import io.github.dra4j.kubeletplugin.internal.api.ApiDeadline;
import io.github.dra4j.kubeletplugin.internal.api.ApiRequests;
import io.github.dra4j.kubeletplugin.internal.logging.LogText;
import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.InvalidResourceException;
import io.github.dra4j.resourceapi.ResourceApiRules;
import io.github.dra4j.resourceclaim.ClaimReference;
import java.time.Duration;
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
 *
 * <p>Each report ends, written or failed, within a fixed time from when it was made (the
 * plugin's {@code apiServerTimeout}), so an API server that accepts connections and never answers
 * cannot hold the reports made after it forever: every request is bounded by the client's request
 * timeout and by what is left of that time ({@link ApiRequests}), and a report whose time ran out
 * while earlier ones waited fails without being sent.
 *
 * <p>Every status it would send is first checked with the API server's rules for a status update
 * ({@link ResourceApiRules#validateStatusUpdate}): when reported, against the claim the driver
 * passes; when written, against the claim just read. A status the server would refuse with 422
 * fails with {@link InvalidResourceException} and the server's message, and is not sent.
 */
public final class ClaimStatusWriter implements ClaimStatusReporter, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ClaimStatusWriter.class);
  /** How many times a write is tried when other writers keep winning. */
  static final int ATTEMPTS = 10;
  /** The longest pause between two tries. */
  private static final long MAX_BACKOFF_MILLIS = 1000;
  /** The API server's rules for the claim status (immutable). */
  private static final ResourceApiRules RULES = ResourceApiRules.kubernetes136();

  private final String driverName;
  private final Supplier<KubernetesClient> client;
  private final Duration timeout;
  private final BiConsumer<Throwable, String> errors;
  private final ExecutorService executor;
  private volatile ApiRequests requests;

  /**
   * A writer.
   *
   * @param driverName the driver whose entries are written
   * @param client the API client (borrowed), asked for at each write
   * @param timeout how long after it is made a report may take, queueing included
   * @param errors where failed writes are reported
   */
  public ClaimStatusWriter(String driverName, Supplier<KubernetesClient> client,
      Duration timeout, BiConsumer<Throwable, String> errors) {
    this.driverName = driverName;
    this.client = client;
    this.timeout = timeout;
    this.errors = errors;
    this.executor = Executors.newSingleThreadExecutor(
        new DaemonThreads("dra4j-claim-status-" + driverName));
  }

  @Override
  public CompletableFuture<Void> report(ResourceClaim claim, List<AllocatedDeviceStatus> devices) {
    Objects.requireNonNull(claim, "claim");
    Objects.requireNonNull(devices, "devices");
    ClaimReference ref = reference(claim);
    List<AllocatedDeviceStatus> entries = new ArrayList<>();
    for (AllocatedDeviceStatus device : devices) {
      entries.add(owned(device));
    }
    Set<String> keys = entries.stream().map(ClaimStatusWriter::key).collect(Collectors.toSet());
    Predicate<AllocatedDeviceStatus> replaced = entry -> driverName.equals(entry.getDriver())
        && keys.contains(key(entry));
    // The server's rules, among them "must be an allocated device in the claim": with the driver
    // name put in above, an entry must name one of this driver's allocated devices.
    requireValid(withDevices(claim, merged(devices(claim), replaced, entries)), claim);
    return submit(ref, "report the status of " + entries.size() + " device(s)", replaced,
        entries);
  }

  @Override
  public CompletableFuture<Void> clear(ClaimReference claim) {
    Objects.requireNonNull(claim, "claim");
    return submit(claim, "remove the device status", entry -> driverName.equals(
        entry.getDriver()), List.of());
  }

  /** The bounded requests through a client, made again if the client changes. */
  private ApiRequests requests(KubernetesClient current) {
    ApiRequests made = requests;
    if (made == null || !made.isFor(current)) {
      made = ApiRequests.of(current);
      requests = made;
    }
    return made;
  }

  /** Stops writing; writes not yet made are dropped. */
  @Override
  public void close() {
    executor.shutdownNow();
  }

  /**
   * The entry with this driver's name put in. An entry that names another driver is refused
   * although the server would take it for that driver's allocated device: a plugin writes only
   * its own driver's entries, because it replaces and removes entries by its driver's name, so an
   * entry written for another driver would stay behind as that driver's, for it to overwrite.
   */
  private AllocatedDeviceStatus owned(AllocatedDeviceStatus device) {
    Objects.requireNonNull(device, "device status");
    String driver = device.getDriver();
    if (driver != null && !driver.isEmpty() && !driver.equals(driverName)) {
      throw new IllegalArgumentException("device status names driver \"" + driver
          + "\"; this plugin writes only driver " + driverName);
    }
    return new AllocatedDeviceStatusBuilder(device).withDriver(driverName).build();
  }

  private static ClaimReference reference(ResourceClaim claim) {
    ObjectMeta meta = Objects.requireNonNull(claim.getMetadata(), "claim metadata");
    return new ClaimReference(Objects.toString(meta.getNamespace(), ""),
        Objects.toString(meta.getName(), ""), Objects.toString(meta.getUid(), ""));
  }

  private static String key(AllocatedDeviceStatus entry) {
    return entry.getPool() + "/" + entry.getDevice() + "/"
        + Objects.toString(emptyToNull(entry.getShareID()), "");
  }

  private static String emptyToNull(String value) {
    return value == null || value.isEmpty() ? null : value;
  }

  private static List<AllocatedDeviceStatus> devices(ResourceClaim claim) {
    return claim.getStatus() == null || claim.getStatus().getDevices() == null ? List.of()
        : claim.getStatus().getDevices();
  }

  /** The entries a write leaves: the old ones not replaced, then the added ones. */
  private static List<AllocatedDeviceStatus> merged(List<AllocatedDeviceStatus> old,
      Predicate<AllocatedDeviceStatus> replaced, List<AllocatedDeviceStatus> added) {
    List<AllocatedDeviceStatus> merged = new ArrayList<>();
    old.stream().filter(replaced.negate()).forEach(merged::add);
    merged.addAll(added);
    return merged;
  }

  /** A copy of the claim with other status entries; the claim is not changed. */
  private static ResourceClaim withDevices(ResourceClaim claim,
      List<AllocatedDeviceStatus> devices) {
    return new ResourceClaimBuilder(claim).editOrNewStatus().withDevices(devices).endStatus()
        .build();
  }

  /** Throws the server's 422 as an exception if it would refuse the status update. */
  private static void requireValid(ResourceClaim updated, ResourceClaim stored) {
    List<FieldError> refused = RULES.validateStatusUpdate(updated, stored);
    if (!refused.isEmpty()) {
      throw new InvalidResourceException("ResourceClaim",
          Objects.toString(stored.getMetadata().getName(), ""), refused);
    }
  }

  private CompletableFuture<Void> submit(ClaimReference ref, String what,
      Predicate<AllocatedDeviceStatus> replaced, List<AllocatedDeviceStatus> added) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    ApiDeadline deadline = ApiDeadline.after(timeout, "option ApiServerOptions.timeout");
    try {
      executor.execute(() -> {
        try {
          write(ref, replaced, added, deadline);
          done.complete(null);
        } catch (RuntimeException e) {
          String message = what + " of claim " + ref.namespacedName() + ": " + e.getMessage();
          LOG.warn("Cannot {}", LogText.text(message));
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

  /**
   * Reads, merges, checks and writes until the write is not refused for a conflict. A status the
   * server's rules refuse against the claim just read (its device was deallocated meanwhile, say)
   * is not sent: it would be refused with 422 on every try.
   */
  private void write(ClaimReference ref, Predicate<AllocatedDeviceStatus> replaced,
      List<AllocatedDeviceStatus> added, ApiDeadline deadline) {
    ApiRequests api = requests(client.get());
    String url = api.url("/apis/resource.k8s.io/v1/namespaces/" + ref.namespace()
        + "/resourceclaims/" + ref.name());
    if (deadline.remainingNanos() <= 0) {
      throw new IllegalStateException("not sent: it waited " + deadline.describe()
          + " behind earlier writes to the API server at " + api.url("/"));
    }
    for (int attempt = 1;; attempt++) {
      ResourceClaim current = api.get(url, ResourceClaim.class, deadline);
      if (current == null || !ref.uid().equals(current.getMetadata().getUid())) {
        if (added.isEmpty()) {
          return; // nothing to remove from a claim that is gone
        }
        throw new IllegalStateException("the claim is gone or was replaced");
      }
      List<AllocatedDeviceStatus> old = devices(current);
      List<AllocatedDeviceStatus> merged = merged(old, replaced, added);
      if (merged.equals(old)) {
        return;
      }
      ResourceClaim updated = withDevices(current, merged);
      requireValid(updated, current);
      try {
        api.put(url + "/status", updated, ResourceClaim.class, deadline);
        return;
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409 || attempt >= ATTEMPTS) {
          throw new IllegalStateException("writing resourceclaims/status failed: "
              + (e.getCode() > 0 ? "HTTP " + e.getCode() + " " : "") + e.getMessage(), e);
        }
        LOG.debug("status of claim {} changed while writing; trying again", ref);
        backOff(attempt);
      }
    }
  }
}
