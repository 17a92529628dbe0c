package io.github.dra4j.lifecycle.internal.checkpoint;

import io.github.dra4j.resourceclaim.AllocatedDevice;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Main class of the child processes of {@link CheckpointProcessTest}: a second driver process
 * using the same checkpoint file.
 *
 * <ul>
 *   <li>{@code hold <file> <millis>}: takes the lock, prints {@code locked}, holds it, adds the
 *       claim {@code held-by-child}, prints {@code releasing} and lets go;
 *   <li>{@code add <file> <prefix> <count>}: prints {@code ready}, waits for a line on stdin,
 *       then adds {@code <prefix>-0} ... one read-modify-write session each, prints {@code done};
 *   <li>{@code write <file> <claims>}: writes that many claims with bulky driver state and prints
 *       {@code written} or {@code failed: <message>}.
 * </ul>
 */
public final class CheckpointChild {

  private CheckpointChild() {}

  /**
   * Runs one mode.
   *
   * @param args the mode and its arguments
   * @throws Exception on any failure, which ends the process with a non-zero status
   */
  public static void main(String[] args) throws Exception {
    Path file = Path.of(args[1]);
    try (CheckpointFile store = CheckpointFile.open(file)) {
      switch (args[0]) {
        case "hold" -> hold(store, Long.parseLong(args[2]));
        case "add" -> add(store, args[2], Integer.parseInt(args[3]));
        case "write" -> write(store, Integer.parseInt(args[2]));
        default -> throw new IllegalArgumentException("unknown mode " + args[0]);
      }
    }
  }

  private static void hold(CheckpointFile store, long millis) throws Exception {
    try (CheckpointFile.Session session = store.lock()) {
      System.out.println("locked");
      Thread.sleep(millis);
      session.write(session.read().data().with("held-by-child", entry("held-by-child")));
      System.out.println("releasing");
    }
  }

  private static void add(CheckpointFile store, String prefix, int count) throws Exception {
    System.out.println("ready");
    BufferedReader in = new BufferedReader(
        new InputStreamReader(System.in, StandardCharsets.UTF_8));
    in.readLine();
    for (int i = 0; i < count; i++) {
      try (CheckpointFile.Session session = store.lock()) {
        String uid = prefix + "-" + i;
        session.write(session.read().data().with(uid, entry(uid)));
      }
    }
    System.out.println("done");
  }

  private static void write(CheckpointFile store, int claims) throws Exception {
    try (CheckpointFile.Session session = store.lock()) {
      session.write(bulky(claims));
      System.out.println("written");
    } catch (IOException e) {
      System.out.println("failed: " + e.getMessage());
    }
  }

  /** A started entry named after its UID. */
  static ClaimEntry entry(String uid) {
    return ClaimEntry.started("ns", uid, "boot", List.of(AllocatedDevice.of("gpu", "pool", "d")));
  }

  /** Claims with about 2 KB of driver state each. */
  static CheckpointData bulky(int claims) {
    Map<String, ClaimEntry> entries = new HashMap<>();
    String padding = "x".repeat(2000);
    for (int i = 0; i < claims; i++) {
      String uid = String.format("claim-%05d", i);
      entries.put(uid, entry(uid).completed(List.of(), null,
          CheckpointSamples.JSON.createObjectNode().put("index", i).put("padding", padding)));
    }
    return CheckpointData.of(entries);
  }
}
