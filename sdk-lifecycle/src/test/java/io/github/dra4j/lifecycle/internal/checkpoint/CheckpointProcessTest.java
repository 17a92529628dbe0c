package io.github.dra4j.lifecycle.internal.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store shared by processes, as by the old and the new pod of a rolling update: each child
 * is a JVM of its own ({@link CheckpointChild}), so the file lock is the only thing they share.
 */
class CheckpointProcessTest {

  private static final Duration WAIT = Duration.ofSeconds(90);

  @TempDir
  Path dir;
  private Path file;
  private CheckpointFile store;
  private final List<ChildJvm> children = new ArrayList<>();

  @BeforeEach
  void open() throws Exception {
    file = dir.resolve("checkpoint.json");
    store = CheckpointFile.open(file);
  }

  @AfterEach
  void close() throws Exception {
    for (ChildJvm child : children) {
      child.close();
    }
    store.close();
  }

  private ChildJvm start(String shellPrefix, String... args) throws Exception {
    ChildJvm child = ChildJvm.start(shellPrefix, args);
    children.add(child);
    return child;
  }

  @Test
  void aSessionWaitsForTheSessionOfAnotherProcess() throws Exception {
    ChildJvm child = start(null, "hold", file.toString(), "1000");
    child.await("locked", WAIT);

    long start = System.nanoTime();
    try (CheckpointFile.Session session = store.lock()) {
      long waitedMillis = (System.nanoTime() - start) / 1_000_000;

      assertThat(waitedMillis).as("waited for the child's session").isGreaterThanOrEqualTo(500);
      assertThat(session.read().data().entry("held-by-child"))
          .as("the child's write, made just before it let go, is visible").isPresent();
    }
    child.await("releasing", WAIT);
    assertThat(child.exitValue(WAIT)).isZero();
  }

  @Test
  void readModifyWriteFromThreeProcessesLosesNoUpdate() throws Exception {
    ChildJvm first = start(null, "add", file.toString(), "a", "50");
    ChildJvm second = start(null, "add", file.toString(), "b", "50");
    first.await("ready", WAIT);
    second.await("ready", WAIT);

    first.send("go");
    second.send("go");
    for (int i = 0; i < 50; i++) {
      try (CheckpointFile.Session session = store.lock()) {
        String uid = "p-" + i;
        session.write(session.read().data().with(uid, CheckpointChild.entry(uid)));
      }
    }
    first.await("done", WAIT);
    second.await("done", WAIT);

    assertThat(first.exitValue(WAIT)).isZero();
    assertThat(second.exitValue(WAIT)).isZero();
    List<String> expected = new ArrayList<>();
    for (String prefix : List.of("a", "b", "p")) {
      for (int i = 0; i < 50; i++) {
        expected.add(prefix + "-" + i);
      }
    }
    try (CheckpointFile.Session session = store.lock()) {
      CheckpointRead read = session.read();
      assertThat(read.corruption()).isEmpty();
      assertThat(read.data().claims().keySet()).containsExactlyInAnyOrderElementsOf(expected);
    }
    assertThat(store.writes()).as("one write per session of this process").isEqualTo(50);
  }

  @Test
  void aWriteThatRunsOutOfSpaceFailsAndLeavesTheOldContent() throws Exception {
    CheckpointData old = CheckpointChild.bulky(1);
    try (CheckpointFile.Session session = store.lock()) {
      session.write(old);
    }
    // A file size limit (32 or 64 KiB: sh counts 512- or 1024-byte blocks) fails the write
    // with EFBIG part way, as a full disk fails it with ENOSPC; the JVM ignores SIGXFSZ.
    ChildJvm child = start("ulimit -f 64", "write", file.toString(), "500");

    String result = child.await("failed: ", WAIT);

    assertThat(result).startsWith("failed: checkpoint " + file + ": cannot write: ")
        .contains("File too large");
    assertThat(child.exitValue(WAIT)).isZero();
    try (CheckpointFile.Session session = store.lock()) {
      assertThat(session.read()).isEqualTo(new CheckpointRead(old, Optional.empty()));
    }
    try (Stream<Path> entries = Files.list(dir)) {
      assertThat(entries.map(p -> p.getFileName().toString()))
          .as("no temporary file left").containsExactlyInAnyOrder(
              "checkpoint.json", "checkpoint.json.lock");
    }
  }
}
