package io.github.dra4j.examples.gpu.mps;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The name of one claim group's MPS daemon and of its directory {@code <plugin dir>/mps/<id>}:
 * the claim's UID, a dash, and the first 5 hex digits of the SHA-256 of the group's device UUIDs
 * sorted and joined with commas. Prepare and unprepare compute the same ID from the claim alone.
 *
 * @param value the ID, safe as one path element
 */
public record MpsDaemonId(String value) {

  /** A claim UID as Kubernetes makes them (a UUID), or any short name of that alphabet. */
  private static final Pattern UID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9-]{0,62}");
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9-]{0,62}-[0-9a-f]{5}");

  /**
   * Checks the value.
   *
   * @param value the ID
   * @throws IllegalArgumentException if it is not of the form {@code <uid>-<5 hex digits>}
   */
  public MpsDaemonId {
    Objects.requireNonNull(value, "value");
    if (!ID.matcher(value).matches()) {
      throw new IllegalArgumentException("MPS daemon ID \"" + value + "\" is not of the form"
          + " <claim uid>-<5 hex digits>");
    }
  }

  /**
   * The ID of a claim's group.
   *
   * @param claimUid the claim's UID; checked, because it becomes part of a path
   * @param sortedUuids the UUIDs of the group's devices, sorted
   * @return the ID
   * @throws IllegalArgumentException if the UID has characters other than letters, digits and
   *     dashes, or is longer than 63 characters
   */
  public static MpsDaemonId of(String claimUid, List<String> sortedUuids) {
    checkUid(claimUid);
    byte[] hash = sha256(String.join(",", sortedUuids));
    return new MpsDaemonId(claimUid + "-" + HexFormat.of().formatHex(hash).substring(0, 5));
  }

  /**
   * Checks a claim UID before it becomes part of a path.
   *
   * @param claimUid the UID
   * @return the UID
   * @throws IllegalArgumentException naming the UID if it is not letters, digits and dashes (up
   *     to 63, not starting with a dash)
   */
  public static String checkUid(String claimUid) {
    if (claimUid == null || !UID.matcher(claimUid).matches()) {
      throw new IllegalArgumentException("claim UID \"" + claimUid + "\" is not letters, digits"
          + " and dashes (up to 63, not starting with a dash)");
    }
    return claimUid;
  }

  /**
   * Whether a directory name is an ID.
   *
   * @param name a file name
   * @return true if {@link #MpsDaemonId(String)} accepts it
   */
  public static boolean isId(String name) {
    return ID.matcher(name).matches();
  }

  private static byte[] sha256(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  @Override
  public String toString() {
    return value;
  }
}
