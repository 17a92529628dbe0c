package io.github.dra4j.kubeletplugin.internal.socket;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

/**
 * Names of the sockets a DRA kubelet plugin creates, by the rules below (the same names a Go
 * driver's sockets get, so the two can replace each other on a node).
 *
 * <p>In rolling-update mode every driver pod needs its own registration socket, so the pod UID is
 * part of the name. Long driver names or deep registry directories would push the path past the
 * Unix socket limit, so two hashed fallbacks exist: {@code <driver>-<short hash of the pod
 * UID>-reg.sock} and {@code dra-<long hash of driver and pod UID>-reg.sock}. The first candidate
 * whose full path fits wins; if none fits, the last one is used. The DRA socket, {@code
 * dra-<podUID>.sock}, falls back to a hash of the pod UID the same way (where Go does not).
 *
 * <p>The Go helper compares against 108 bytes, which is one byte too generous: Linux keeps a
 * terminating NUL in the 108-byte {@code sun_path}, so a 108-byte path can never be bound (in Go
 * either). This class uses {@link #MAX_SOCKET_PATH_BYTES} = 107, which picks the same name as Go
 * wherever Go's choice can be bound at all.
 *
 * <p>Stateless; all methods are pure functions.
 */
public final class SocketNames {

  /** Longest socket path, in UTF-8 bytes, that Linux can bind (108-byte sun_path less the NUL). */
  public static final int MAX_SOCKET_PATH_BYTES = 107;

  /** Default registration socket file name suffix ({@code <driver>-reg.sock}). */
  public static final String REGISTRATION_SUFFIX = "-reg.sock";

  /** Default DRA service socket file name outside rolling-update mode. */
  public static final String DEFAULT_PLUGIN_SOCKET = "dra.sock";

  private static final int SHORT_HASH_BYTES = 8;
  private static final int LONG_HASH_BYTES = 16;
  /**
   * The DRA socket's hash: 8 characters, so that even a 63-character driver name fits in the
   * default plugins directory; the pods of one driver on one node are two at most.
   */
  private static final int POD_HASH_BYTES = 6;

  private SocketNames() {}

  /**
   * Registration socket file name outside rolling-update mode: {@code <driver>-reg.sock}.
   *
   * @param driverName the DRA driver name
   * @return the file name (no directory)
   */
  public static String registrationSocket(String driverName) {
    return driverName + REGISTRATION_SUFFIX;
  }

  /**
   * DRA service socket file name in rolling-update mode: {@code dra-<podUID>.sock} where its full
   * path fits, else {@code dra-<8-character hash of the pod UID>.sock}. The Go helper never
   * shortens it, so there a driver name over 36 characters cannot start in the default plugins
   * directory ({@code /var/lib/kubelet/plugins/<driver>/dra-<36-character UID>.sock}); the
   * kubelet reads the name from the registration answer, and the data directory is the driver's
   * own, so a hash of the pod UID is as unique.
   *
   * @param dataDirectory the plugin data directory the socket is created in
   * @param podUid the UID of the driver pod
   * @return the file name (no directory)
   */
  public static String rollingUpdatePluginSocket(Path dataDirectory, String podUid) {
    String full = "dra-" + podUid + ".sock";
    if (fits(dataDirectory.resolve(full))) {
      return full;
    }
    return "dra-" + hash(podUid.getBytes(StandardCharsets.UTF_8), POD_HASH_BYTES) + ".sock";
  }

  /**
   * The registration socket file name for rolling-update mode: the first of {@link
   * #rollingUpdateCandidates} whose full path fits.
   *
   * @param registrarDirectory the directory the kubelet watches
   * @param driverName the DRA driver name
   * @param podUid the UID of the driver pod
   * @return the first candidate whose full path fits {@link #MAX_SOCKET_PATH_BYTES}, else the last
   */
  public static String rollingUpdateRegistrationSocket(
      Path registrarDirectory, String driverName, String podUid) {
    List<String> candidates = rollingUpdateCandidates(driverName, podUid);
    for (String candidate : candidates) {
      if (fits(registrarDirectory.resolve(candidate))) {
        return candidate;
      }
    }
    return candidates.get(candidates.size() - 1);
  }

  /**
   * The candidate registration socket names in rolling-update mode, in order of preference.
   *
   * @param driverName the DRA driver name
   * @param podUid the UID of the driver pod
   * @return the unhashed name, the short-hash name and the long-hash name
   */
  public static List<String> rollingUpdateCandidates(String driverName, String podUid) {
    String shortHash = hash(podUid.getBytes(StandardCharsets.UTF_8), SHORT_HASH_BYTES);
    byte[] driverAndPod = (driverName + '\0' + podUid).getBytes(StandardCharsets.UTF_8);
    String longHash = hash(driverAndPod, LONG_HASH_BYTES);
    return List.of(
        driverName + "-" + podUid + REGISTRATION_SUFFIX,
        driverName + "-" + shortHash + REGISTRATION_SUFFIX,
        "dra-" + longHash + REGISTRATION_SUFFIX);
  }

  /**
   * Whether a socket can be bound at this path on Linux.
   *
   * @param path the full socket path
   * @return true if its UTF-8 form is at most {@link #MAX_SOCKET_PATH_BYTES} bytes
   */
  public static boolean fits(Path path) {
    return byteLength(path) <= MAX_SOCKET_PATH_BYTES;
  }

  /**
   * Length of the path in UTF-8 bytes, the unit the kernel limit is expressed in.
   *
   * @param path a path
   * @return its length in bytes
   */
  public static int byteLength(Path path) {
    return path.toString().getBytes(StandardCharsets.UTF_8).length;
  }

  private static String hash(byte[] input, int prefixBytes) {
    byte[] digest;
    try {
      digest = MessageDigest.getInstance("SHA-256").digest(input);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime must provide SHA-256", e);
    }
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(Arrays.copyOf(digest, prefixBytes));
  }
}
