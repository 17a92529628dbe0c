package io.github.dra4j.benchmarks.crash;

import io.github.dra4j.cdi.store.SpecFileName;
import io.github.dra4j.lifecycle.ClaimLifecycle;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The promises a crash run checks once every owed call has succeeded, read from the files as an
 * operator would see them (the checkpoint as plain JSON, the CDI directory, the hardware):
 *
 * <ul>
 *   <li>nothing lost: every claim in use has a completed checkpoint entry, its CDI spec, and its
 *       device held for it;
 *   <li>nothing doubled: no device is held by two claims;
 *   <li>nothing left behind: an unprepared claim has no entry, no spec, no hold; and no spec or
 *       entry exists for a claim the kubelet does not know as in use.
 * </ul>
 *
 * <p>A kill in the middle of writing a spec leaves its temporary file ({@code .<name>.<n>.tmp}),
 * which no runtime reads. The lifecycle promises to remove such files at start once they are
 * older than five minutes (younger ones may belong to the other pod of a rolling update, still
 * writing), so only older ones count as left behind.
 */
public final class Invariants {

  /** The age from which the lifecycle's start-up repair removes temporary files. */
  static final Duration TEMPORARY_FILE_GRACE = Duration.ofMinutes(5);

  /**
   * What the check found, each a readable line.
   *
   * @param lost claims in use missing something
   * @param doubled devices held twice
   * @param leftovers things of unprepared claims still there
   */
  public record Findings(List<String> lost, List<String> doubled, List<String> leftovers) {
    /**
     * Everything found.
     *
     * @return all lines
     */
    public List<String> all() {
      List<String> all = new ArrayList<>(lost);
      all.addAll(doubled);
      all.addAll(leftovers);
      return all;
    }
  }

  private final CrashHarness.Layout layout;
  private final DeviceHolders hardware;

  Invariants(CrashHarness.Layout layout, DeviceHolders hardware) {
    this.layout = layout;
    this.hardware = hardware;
  }

  Findings check(Map<String, CrashHarness.Seen> seen, Map<String, String> deviceOf)
      throws IOException {
    JsonNode claims = checkpointClaims();
    List<String> lost = new ArrayList<>();
    List<String> doubled = new ArrayList<>();
    List<String> leftovers = new ArrayList<>();
    for (Map.Entry<String, CrashHarness.Seen> e : seen.entrySet()) {
      String uid = e.getKey();
      String device = deviceOf.get(uid);
      JsonNode entry = claims.path(uid);
      boolean spec = Files.exists(spec(uid));
      boolean held = hardware.holders(device).contains(uid);
      if (e.getValue() == CrashHarness.Seen.PREPARED) {
        if (!"PrepareCompleted".equals(entry.path("phase").asString(""))) {
          lost.add("claim " + uid + " in use: checkpoint entry " + (entry.isMissingNode()
              ? "missing" : entry.path("phase").asString("")));
        }
        if (!spec) {
          lost.add("claim " + uid + " in use: CDI spec missing");
        }
        if (!held) {
          lost.add("claim " + uid + " in use: " + device + " not held for it");
        }
      } else {
        if (!entry.isMissingNode()) {
          leftovers.add("claim " + uid + " " + e.getValue() + ": checkpoint entry left");
        }
        if (spec) {
          leftovers.add("claim " + uid + " " + e.getValue() + ": CDI spec left");
        }
        if (held) {
          leftovers.add("claim " + uid + " " + e.getValue() + ": " + device + " still held");
        }
      }
    }
    for (Map.Entry<String, Set<String>> holders : hardware.all().entrySet()) {
      if (holders.getValue().size() > 1) {
        doubled.add("device " + holders.getKey() + " held by " + holders.getValue());
      }
    }
    try (Stream<Path> files = Files.list(layout.cdi())) {
      for (Path file : files.toList()) {
        String name = file.getFileName().toString();
        if (name.startsWith(".") && name.endsWith(".tmp") && youngerThanGrace(file)) {
          continue;
        }
        String uid = name.substring(name.indexOf('_') + 1).replace(".json", "");
        if (seen.get(uid) != CrashHarness.Seen.PREPARED) {
          leftovers.add("CDI file " + name + " of a claim not in use");
        }
      }
    }
    return new Findings(lost, doubled, leftovers);
  }

  private static boolean youngerThanGrace(Path file) throws IOException {
    Instant modified = Files.getLastModifiedTime(file).toInstant();
    return modified.isAfter(Instant.now().minus(TEMPORARY_FILE_GRACE));
  }

  private Path spec(String uid) {
    return layout.cdi().resolve(
        SpecFileName.forTransientSpec(CrashTestDriver.KIND, uid).value());
  }

  private JsonNode checkpointClaims() throws IOException {
    Path file = layout.data().resolve(ClaimLifecycle.DEFAULT_CHECKPOINT_FILE);
    if (!Files.exists(file)) {
      return JsonMapper.builder().build().createObjectNode();
    }
    return JsonMapper.builder().build().readTree(Files.readAllBytes(file))
        .path("data").path("claims");
  }
}
