package io.github.dra4j.lifecycle.internal.store;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.cdi.store.SpecDirectory;
import io.github.dra4j.cdi.store.SpecFileName;
import io.github.dra4j.cdi.store.WriteMode;
import io.github.dra4j.kubeletplugin.CallContext;
import io.github.dra4j.kubeletplugin.PrepareResult;
import io.github.dra4j.kubeletplugin.spi.ClaimLookup;
import io.github.dra4j.lifecycle.ClaimDriver;
import io.github.dra4j.lifecycle.PreparedClaim;
import io.github.dra4j.lifecycle.internal.checkpoint.ClaimEntry;
import io.github.dra4j.lifecycle.internal.checkpoint.ClaimPhase;
import io.github.dra4j.resourceclaim.ClaimReference;
import io.github.dra4j.resourceclaim.DriverAllocation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * What is done on the node for one claim: the driver's prepare, unprepare and rollback, the
 * claim's CDI spec, and the claim read from the API server when the checkpoint cannot answer for
 * it. Knows nothing of the checkpoint's file: {@link ClaimStore} decides, under its lock, what each
 * claim needs and records the outcome.
 *
 * <p>Immutable; thread-safe as far as the driver is (the store calls it under its lock).
 *
 * @param <S> the driver's state record
 */
final class ClaimWork<S> {

  private final ClaimDriver<S> driver;
  private final String driverName;
  private final String bootId;
  private final SpecDirectory specs;
  private final ClaimSpecs claimSpecs;
  private final StateCodec<S> states;
  private final ClaimLookup lookup;
  private final BiConsumer<Throwable, String> errors;

  ClaimWork(ClaimDriver<S> driver, String driverName, String bootId, SpecDirectory specs,
      ClaimSpecs claimSpecs, StateCodec<S> states, ClaimLookup lookup,
      BiConsumer<Throwable, String> errors) {
    this.driver = driver;
    this.driverName = driverName;
    this.bootId = bootId;
    this.specs = specs;
    this.claimSpecs = claimSpecs;
    this.states = states;
    this.lookup = lookup;
    this.errors = errors;
  }

  /** The node's current boot. */
  String bootId() {
    return bootId;
  }

  /** Whether an entry was written in the current boot (else the hardware kept nothing of it). */
  boolean thisBoot(ClaimEntry entry) {
    return bootId.equals(entry.bootId());
  }

  /** Whether an entry is a claim prepared in the current boot. */
  boolean preparedInThisBoot(ClaimEntry entry) {
    return entry.phase() == ClaimPhase.PREPARE_COMPLETED && thisBoot(entry);
  }

  /**
   * Removes this driver's claim specs of claims not kept, and the temporary files crashed
   * writers left in the CDI directory.
   *
   * @param keep the spec IDs to keep
   * @param leftoverAge how old a temporary file must be to count as left over
   * @return how many claim specs were removed
   * @throws IOException if the CDI directory cannot be listed
   */
  int removeOrphanSpecs(Set<String> keep, Duration leftoverAge) throws IOException {
    int removed = specs.removeOrphans(claimSpecs.kind(), keep).size();
    specs.removeLeftovers(leftoverAge);
    return removed;
  }

  /** This driver's devices of a claim; throws naming the claim when it is not allocated. */
  DriverAllocation allocationOf(ResourceClaim claim) {
    return DriverAllocation.of(claim, driverName);
  }

  /** The devices as an entry recorded them. */
  DriverAllocation allocationOf(String uid, ClaimEntry entry) {
    return new DriverAllocation(new ClaimReference(entry.namespace(), entry.name(), uid),
        driverName, entry.allocation());
  }

  /**
   * The whole claim, for one the plugin handed over with its metadata only because the
   * checkpoint held it as prepared when the plugin asked: it is read once, here, instead of the
   * plugin calling again.
   *
   * @throws IllegalStateException naming the claim if it does not exist or got replaced
   */
  ResourceClaim read(ResourceClaim metadataOnly) {
    ClaimReference ref = new ClaimReference(metadataOnly.getMetadata().getNamespace(),
        metadataOnly.getMetadata().getName(), metadataOnly.getMetadata().getUid());
    Optional<ResourceClaim> found;
    try {
      found = lookup.find(ref);
    } catch (RuntimeException e) {
      throw new IllegalStateException("get resource claims: retrieve claim "
          + ref.namespacedName() + ": " + e.getMessage(), e);
    }
    ResourceClaim claim = found.orElseThrow(() -> new IllegalStateException(
        "get resource claims: retrieve claim " + ref.namespacedName() + ": not found"));
    if (claim.getMetadata() == null || !ref.uid().equals(claim.getMetadata().getUid())) {
      throw new IllegalStateException(
          "get resource claims: claim " + ref.namespacedName() + " got replaced");
    }
    return claim;
  }

  /**
   * The claim of an entry as the API server has it now, by namespace and name.
   *
   * @return the claim, empty if none of that name exists (it may have another UID)
   * @throws io.fabric8.kubernetes.client.KubernetesClientException if it cannot be read
   */
  Optional<ResourceClaim> lookUp(String uid, ClaimEntry entry) {
    return lookup.find(new ClaimReference(entry.namespace(), entry.name(), uid));
  }

  /**
   * The driver's prepare.
   *
   * @throws Exception as the driver throws, or if it returned nothing
   */
  PreparedClaim<S> prepare(DriverAllocation allocation, ResourceClaim claim, CallContext context)
      throws Exception {
    PreparedClaim<S> prepared = driver.prepare(allocation, claim, context);
    if (prepared == null) {
      throw new IllegalStateException("driver returned no result");
    }
    return prepared;
  }

  /**
   * Writes the CDI spec of what the driver prepared (or removes a stale one when nothing has
   * edits) and returns the entry that records it.
   *
   * @param started the claim's entry as marked before the driver ran
   * @throws IOException if the spec cannot be written
   * @throws IllegalArgumentException if the driver returned a device that is not allocated, or a
   *     state that cannot be stored as JSON
   */
  Completed complete(String uid, DriverAllocation allocation, PreparedClaim<S> prepared,
      ClaimEntry started) throws IOException {
    ClaimSpecs.ClaimOutput output = claimSpecs.build(allocation, prepared);
    var json = output.spec().map(ClaimSpecs::toJson).orElse(null);
    if (output.spec().isPresent()) {
      specs.writeTransient(output.spec().get(), uid, WriteMode.REPLACE_IF_CHANGED);
    } else {
      removeSpec(uid, allocation.claim().namespacedName());
    }
    return new Completed(started.completed(ClaimSpecs.stored(output.devices()), json,
        states.encode(prepared.state())), PrepareResult.prepared(output.devices()));
  }

  /** A prepared claim's entry and the answer to the kubelet. */
  record Completed(ClaimEntry entry, PrepareResult answer) {}

  /** The stored state of a completed entry. */
  S state(String uid, ClaimEntry entry) {
    return states.decode(entry.driverState(), "claim " + uid);
  }

  /**
   * Writes a completed claim's CDI spec again from its checkpoint entry if the file is missing or
   * differs; an entry without a spec needs none.
   *
   * @return true if the file was written
   * @throws IOException if the spec cannot be written, or the stored one does not read
   */
  boolean restoreSpec(String uid, ClaimEntry entry) throws IOException {
    return entry.cdiSpec() != null && specs.writeTransient(
        ClaimSpecs.fromJson(entry.cdiSpec(), "checkpoint entry of claim " + uid), uid,
        WriteMode.REPLACE_IF_CHANGED).written();
  }

  /**
   * Removes a claim's CDI spec, if there is one. Only what the lifecycle writes is removed: a
   * regular file, or a symbolic link in its place. Anything else at the path (a directory, which
   * a bind mount of the missing file leaves; a FIFO; a socket) is not the driver's: it is left
   * alone and reported, so that it cannot make the claim's unprepare fail on every retry.
   *
   * @param uid the claim UID
   * @param claim the claim's namespace and name, for the report
   * @throws IOException if the spec file exists but cannot be removed
   */
  void removeSpec(String uid, String claim) throws IOException {
    Path path = specs.path().resolve(
        SpecFileName.forTransientSpec(claimSpecs.kind(), uid).value());
    BasicFileAttributes attributes;
    try {
      attributes = Files.readAttributes(path, BasicFileAttributes.class,
          LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return;
    }
    if (attributes.isDirectory() || attributes.isOther()) {
      String what = attributes.isDirectory() ? "a directory" : "a special file";
      errors.accept(new IOException(path + ": " + what + ", not a spec file"),
          "CDI spec path " + path + " of claim " + claim + " (uid " + uid + ") holds " + what
              + ", which the driver did not write; left it in place and went on");
      return;
    }
    specs.removeTransient(claimSpecs.kind(), uid);
  }

  /** The driver's rollback, then the claim's CDI spec. */
  void rollBack(String uid, ClaimEntry entry, Optional<S> state, CallContext context)
      throws Exception {
    driver.rollback(allocationOf(uid, entry), state, context);
    removeSpec(uid, entry.namespace() + "/" + entry.name());
  }

  /**
   * Whatever the entry says was done is undone: hardware, then CDI spec. A claim whose unprepare
   * started is unprepared again with its state: the driver's undo is idempotent.
   */
  void undo(String uid, ClaimEntry entry, CallContext context) throws Exception {
    String claim = entry.namespace() + "/" + entry.name();
    if (!thisBoot(entry)) {
      removeSpec(uid, claim); // the hardware kept nothing
      return;
    }
    if (entry.phase() == ClaimPhase.PREPARE_STARTED) {
      rollBack(uid, entry, Optional.empty(), context);
      return;
    }
    driver.unprepare(allocationOf(uid, entry), state(uid, entry), context);
    removeSpec(uid, claim);
  }
}
