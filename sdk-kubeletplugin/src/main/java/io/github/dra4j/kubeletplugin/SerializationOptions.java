package io.github.dra4j.kubeletplugin;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Whether prepare and unprepare calls run one at a time, and where the lock that makes them do so
 * across two driver pods lives in rolling-update mode. Set with {@link
 * KubeletPluginBuilder#serialization}.
 *
 * @param enabled whether calls run one at a time (default true); off, the driver must handle
 *     concurrent calls itself
 * @param lockDirectory where {@code serialize.lock} lives in rolling-update mode; null (the
 *     default) for the plugin data directory
 */
public record SerializationOptions(boolean enabled, Path lockDirectory) {

  /** The defaults: serialized, the lock in the plugin data directory. */
  public static final SerializationOptions DEFAULTS = new SerializationOptions(true, null);

  /**
   * These options with serialized calls on or off.
   *
   * @param on true to serialize
   * @return the new options
   */
  public SerializationOptions withEnabled(boolean on) {
    return new SerializationOptions(on, lockDirectory);
  }

  /**
   * These options with another lock directory.
   *
   * @param directory the directory of {@code serialize.lock}
   * @return the new options
   */
  public SerializationOptions withLockDirectory(Path directory) {
    return new SerializationOptions(enabled, Objects.requireNonNull(directory, "lockDirectory"));
  }
}
