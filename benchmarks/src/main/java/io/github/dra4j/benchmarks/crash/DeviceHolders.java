package io.github.dra4j.benchmarks.crash;

import io.github.dra4j.core.file.AtomicFileWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The crash-test driver's "hardware": a directory with one file per device that lists the claims
 * holding the device, one UID a line. Holding and letting go are idempotent, as undoing real
 * hardware work must be; each change replaces the device's file atomically and durably, so a
 * process killed at any point leaves each file either before or after the change. A device held
 * by two claims at once is a doubled preparation. Not thread-safe: the claim lifecycle calls the
 * driver one claim at a time, under its lock.
 */
public final class DeviceHolders {

  private static final AtomicFileWriter WRITER = AtomicFileWriter.builder().skipUnchanged(true)
      .build();

  private final Path directory;

  /**
   * Uses a directory (created on first change).
   *
   * @param directory one file per device
   */
  public DeviceHolders(Path directory) {
    this.directory = directory;
  }

  /**
   * The claims holding one device.
   *
   * @param device the device
   * @return their UIDs, sorted
   */
  public Set<String> holders(String device) {
    Path file = directory.resolve(device);
    Set<String> uids = new TreeSet<>();
    try {
      if (Files.exists(file)) {
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
          if (!line.isBlank()) {
            uids.add(line.strip());
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return uids;
  }

  /**
   * Every device that is held, with its holders.
   *
   * @return device to UIDs
   */
  public Map<String, Set<String>> all() {
    Map<String, Set<String>> all = new TreeMap<>();
    if (!Files.isDirectory(directory)) {
      return all;
    }
    try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "gpu-*")) {
      for (Path file : files) {
        Set<String> uids = holders(file.getFileName().toString());
        if (!uids.isEmpty()) {
          all.put(file.getFileName().toString(), uids);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return all;
  }

  /**
   * Marks a device held by a claim.
   *
   * @param device the device
   * @param uid the claim
   */
  public void hold(String device, String uid) {
    Set<String> uids = holders(device);
    uids.add(uid);
    save(device, uids);
  }

  /**
   * Lets a claim's hold of a device go; nothing happens when it holds none.
   *
   * @param device the device
   * @param uid the claim
   */
  public void release(String device, String uid) {
    Set<String> uids = holders(device);
    if (uids.remove(uid)) {
      save(device, uids);
    }
  }

  /** Forgets every hold, as a reboot does. */
  public void reset() {
    all().keySet().forEach(device -> save(device, Set.of()));
  }

  private void save(String device, Set<String> uids) {
    try {
      Files.createDirectories(directory);
      WRITER.writeString(directory.resolve(device),
          uids.isEmpty() ? "" : String.join("\n", uids) + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
