package io.github.dra4j.lifecycle.internal.checkpoint;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The content of the checkpoint: the prepared (or being prepared) claims by UID. Immutable; a
 * change makes a new instance ({@link #with}, {@link #without}), so a value read under the lock
 * can be kept and shared freely. Claims are kept sorted by UID, which makes the encoded file the
 * same for the same content.
 */
public final class CheckpointData {

  private static final CheckpointData EMPTY = new CheckpointData(new TreeMap<>());

  private final SortedMap<String, ClaimEntry> claims;

  private CheckpointData(SortedMap<String, ClaimEntry> claims) {
    this.claims = Collections.unmodifiableSortedMap(claims);
  }

  /**
   * The checkpoint without claims (also what a missing file reads as).
   *
   * @return the empty data
   */
  public static CheckpointData empty() {
    return EMPTY;
  }

  /**
   * Checkpoint data holding the given claims.
   *
   * @param claims claim UID to entry; each UID must pass {@link
   *     io.github.dra4j.core.name.NameRules#uid}
   * @return the data, with its own copy of the map
   * @throws IllegalArgumentException if a UID is not valid
   * @throws NullPointerException if an entry is null
   */
  public static CheckpointData of(Map<String, ClaimEntry> claims) {
    TreeMap<String, ClaimEntry> copy = new TreeMap<>();
    for (Map.Entry<String, ClaimEntry> claim : claims.entrySet()) {
      checkUid(claim.getKey());
      copy.put(claim.getKey(), Objects.requireNonNull(claim.getValue(), "entry"));
    }
    return copy.isEmpty() ? EMPTY : new CheckpointData(copy);
  }

  /**
   * The claims.
   *
   * @return an unmodifiable map from claim UID to entry, iterated in UID order
   */
  public Map<String, ClaimEntry> claims() {
    return claims;
  }

  /**
   * One claim's entry.
   *
   * @param uid the claim UID
   * @return the entry, or empty if the claim is not in the checkpoint
   */
  public Optional<ClaimEntry> entry(String uid) {
    return Optional.ofNullable(claims.get(uid));
  }

  /**
   * This data with one claim's entry added or replaced.
   *
   * @param uid the claim UID; it becomes part of file names, so it must pass {@link
   *     io.github.dra4j.core.name.NameRules#uid}
   * @param entry the entry
   * @return the new data; this one is unchanged
   * @throws IllegalArgumentException if the UID is not valid
   */
  public CheckpointData with(String uid, ClaimEntry entry) {
    checkUid(uid);
    Objects.requireNonNull(entry, "entry");
    TreeMap<String, ClaimEntry> copy = new TreeMap<>(claims);
    copy.put(uid, entry);
    return new CheckpointData(copy);
  }

  /**
   * This data without one claim.
   *
   * @param uid the claim UID
   * @return the new data, or this one if the claim was not in it
   */
  public CheckpointData without(String uid) {
    if (!claims.containsKey(uid)) {
      return this;
    }
    TreeMap<String, ClaimEntry> copy = new TreeMap<>(claims);
    copy.remove(uid);
    return copy.isEmpty() ? EMPTY : new CheckpointData(copy);
  }

  private static void checkUid(String uid) {
    CheckpointValues.check(JsonFields.key("claims", uid), CheckpointValues.uidProblem(uid));
  }

  /**
   * The number of claims.
   *
   * @return how many claims the checkpoint holds
   */
  public int size() {
    return claims.size();
  }

  /**
   * Equal if both hold the same claims with equal entries.
   *
   * @param other any object
   * @return whether other is checkpoint data with the same claims
   */
  @Override
  public boolean equals(Object other) {
    return other instanceof CheckpointData data && claims.equals(data.claims);
  }

  /**
   * A hash of the claims.
   *
   * @return the hash code
   */
  @Override
  public int hashCode() {
    return claims.hashCode();
  }

  /**
   * A description listing the claims.
   *
   * @return e.g. {@code CheckpointData{uid1=ClaimEntry[...]}}
   */
  @Override
  public String toString() {
    return "CheckpointData" + claims;
  }
}
