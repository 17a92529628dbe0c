package io.github.dra4j.lifecycle;

import io.github.dra4j.core.file.AtomicFileWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The "hardware" of the test drivers: a file that records, per device, which claims hold it, so a
 * test (or a process killed at a random point and started again) can count how often each device
 * is prepared. Holding is idempotent (a set of claim UIDs), as undoing real hardware work must be.
 * Every change replaces the file atomically and durably. Not thread-safe; the lifecycle calls the
 * driver under its lock.
 */
public final class CountingHardware {

  private static final ObjectMapper JSON = JsonMapper.builder().build();
  private static final AtomicFileWriter WRITER = AtomicFileWriter.builder().build();

  private final Path file;

  /**
   * Uses (or creates on first change) a hardware file.
   *
   * @param file the file
   */
  public CountingHardware(Path file) {
    this.file = file;
  }

  /**
   * Who holds each device.
   *
   * @return device to holding claim UIDs; devices nobody holds are left out
   */
  public Map<String, Set<String>> holders() {
    if (!Files.exists(file)) {
      return new TreeMap<>();
    }
    try {
      Map<String, Set<String>> read = JSON.readValue(Files.readAllBytes(file),
          new TypeReference<TreeMap<String, Set<String>>>() {});
      Map<String, Set<String>> holders = new TreeMap<>();
      read.forEach((device, uids) -> holders.put(device, new TreeSet<>(uids)));
      return holders;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * How many claims hold each device.
   *
   * @return device to count, held devices only
   */
  public Map<String, Integer> counts() {
    Map<String, Integer> counts = new TreeMap<>();
    holders().forEach((device, uids) -> counts.put(device, uids.size()));
    return counts;
  }

  /**
   * Marks a device held by a claim.
   *
   * @param device the device
   * @param uid the claim
   */
  public void hold(String device, String uid) {
    Map<String, Set<String>> holders = holders();
    holders.computeIfAbsent(device, d -> new TreeSet<>()).add(uid);
    save(holders);
  }

  /**
   * Lets go of a device for a claim; nothing happens if the claim does not hold it.
   *
   * @param device the device
   * @param uid the claim
   */
  public void release(String device, String uid) {
    Map<String, Set<String>> holders = holders();
    Set<String> uids = holders.get(device);
    if (uids != null && uids.remove(uid)) {
      if (uids.isEmpty()) {
        holders.remove(device);
      }
      save(holders);
    }
  }

  /** Forgets everything, as a reboot does. */
  public void reset() {
    save(new TreeMap<>());
  }

  private void save(Map<String, Set<String>> holders) {
    try {
      WRITER.write(file, JSON.writeValueAsBytes(holders));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
