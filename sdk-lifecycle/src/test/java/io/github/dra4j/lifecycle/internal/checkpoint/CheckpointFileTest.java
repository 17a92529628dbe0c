package io.github.dra4j.lifecycle.internal.checkpoint;

import static io.github.dra4j.lifecycle.internal.checkpoint.CheckpointSamples.UID_1;
import static io.github.dra4j.lifecycle.internal.checkpoint.CheckpointSamples.edited;
import static io.github.dra4j.lifecycle.internal.checkpoint.CheckpointSamples.rich;
import static io.github.dra4j.lifecycle.internal.checkpoint.CheckpointSamples.started;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The store on real files in one process: reading, writing, keeping corrupt files aside. */
class CheckpointFileTest {

  @TempDir
  Path dir;
  private Path file;
  private CheckpointFile store;

  @BeforeEach
  void open() throws IOException {
    file = dir.resolve("checkpoint.json");
    store = CheckpointFile.open(file);
  }

  @AfterEach
  void close() throws IOException {
    store.close();
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
  }

  private List<String> names() throws IOException {
    try (Stream<Path> entries = Files.list(dir)) {
      return entries.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  private CheckpointRead read() throws Exception {
    try (CheckpointFile.Session session = store.lock()) {
      return session.read();
    }
  }

  private void write(CheckpointData data) throws Exception {
    try (CheckpointFile.Session session = store.lock()) {
      session.write(data);
    }
  }

  @Test
  void aMissingFileReadsAsEmptyAndTheLockFileLiesBesideIt() throws Exception {
    CheckpointRead read = read();

    assertThat(read.data()).isEqualTo(CheckpointData.empty());
    assertThat(read.corruption()).isEmpty();
    assertThat(store.file()).isEqualTo(file.toAbsolutePath());
    assertThat(store.lockFile()).isEqualTo(dir.resolve("checkpoint.json.lock"));
    assertThat(names()).containsExactly("checkpoint.json.lock");
  }

  @Test
  void writtenDataReadsBackFromAPrivateFileWithoutTemporaryFilesLeft() throws Exception {
    write(rich());

    assertThat(read()).isEqualTo(new CheckpointRead(rich(), Optional.empty()));
    assertThat(Files.readAllBytes(file)).isEqualTo(CheckpointCodec.encode(rich()));
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
    assertThat(names()).containsExactly("checkpoint.json", "checkpoint.json.lock");
    assertThat(store.writes()).isEqualTo(1);
  }

  @Test
  void aNewStoreOnTheSameFileReadsWhatTheOldOneWrote() throws Exception {
    write(rich());
    store.close();

    try (CheckpointFile again = CheckpointFile.open(file);
        CheckpointFile.Session session = again.lock()) {
      assertThat(session.read().data()).isEqualTo(rich());
      assertThat(again.writes()).isZero();
    }
  }

  static Stream<Arguments> corrupt() {
    byte[] good = CheckpointCodec.encode(rich());
    String text = CheckpointSamples.text(good);
    CheckpointData one = CheckpointData.empty().with(UID_1, started("one"));
    return Stream.of(
        Arguments.of("truncated", Arrays.copyOf(good, good.length / 2), "not valid JSON:"),
        Arguments.of("flipped byte", text.replace("\"ml-team\"", "\"ml-tEam\"")
            .getBytes(StandardCharsets.UTF_8), "checksum mismatch: file says sha256:"),
        Arguments.of("garbage", new byte[] {0x7f, 'E', 'L', 'F', 2, 1, 1, 0, (byte) 0x93},
            "not valid JSON:"),
        Arguments.of("empty", new byte[0], "empty file"),
        Arguments.of("wrong apiVersion",
            edited(one, "checkpoint.dra4j.io/v1", "checkpoint.dra4j.io/v9"),
            "apiVersion \"checkpoint.dra4j.io/v9\" is not one this version reads"),
        Arguments.of("wrong kind", edited(one, "PreparedClaims", "Other"),
            "kind \"Other\" is not \"PreparedClaims\""),
        Arguments.of("uid escaping the directory", edited(one, UID_1, "../../etc"),
            "claims[\"../../etc\"]: invalid claim UID \"../../etc\""),
        Arguments.of("namespace with a slash", edited(one, "\"ns-a\"", "\"ns/evil\""),
            "claims[\"" + UID_1 + "\"].namespace: invalid value \"ns/evil\""),
        Arguments.of("no claims section, checksum valid", edited(one, "\"claims\": {",
            "\"other\": {"), "data.claims: required"),
        Arguments.of("data empty, checksum valid", CheckpointSamples.withChecksum(
            text.substring(0, text.indexOf("\"data\": ")) + "\"data\": {}\n}\n")
            .getBytes(StandardCharsets.UTF_8), "data.claims: required"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void corrupt(String what, byte[] bytes, String problem) throws Exception {
    Files.write(file, bytes);

    CheckpointRead read = read();

    assertThat(read.data()).isEqualTo(CheckpointData.empty());
    Corruption corruption = read.corruption().orElseThrow();
    assertThat(corruption.file()).isEqualTo(file.toAbsolutePath());
    assertThat(corruption.keptAs().getParent()).isEqualTo(dir);
    assertThat(corruption.keptAs().getFileName().toString())
        .matches("checkpoint\\.json\\.corrupt-[0-9]{8}T[0-9]{9}Z");
    assertThat(corruption.reason())
        .startsWith("checkpoint " + file.toAbsolutePath() + " is corrupt: " + problem);
    assertThat(Files.readAllBytes(corruption.keptAs())).isEqualTo(bytes);
    assertThat(file).doesNotExist();
    assertThat(names()).containsExactly(corruption.keptAs().getFileName().toString(),
        "checkpoint.json.lock");

    CheckpointRead again = read();
    assertThat(again.data()).isEqualTo(CheckpointData.empty());
    assertThat(again.corruption()).isEmpty();
  }

  @Test
  void keptFilesGetANumberWhenTheNameIsTaken() throws Exception {
    store.close();
    Instant now = Instant.parse("2026-03-01T12:00:00.123Z");
    store = CheckpointFile.open(file, Clock.fixed(now, ZoneOffset.UTC));
    List<String> kept = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      Files.writeString(file, "broken " + i);
      kept.add(read().corruption().orElseThrow().keptAs().getFileName().toString());
    }

    String base = "checkpoint.json.corrupt-20260301T120000123Z";
    assertThat(kept).containsExactly(base, base + "-1", base + "-2");
    assertThat(Files.readString(dir.resolve(base + "-1"))).isEqualTo("broken 1");
  }

  @Test
  void aFileThatMayNotBeReadIsKeptAsideAndTheStoreGoesOnEmpty() throws Exception {
    write(rich());
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("---------"));
    assumeFalse(Files.isReadable(file), "this user reads a file of mode 000 anyway (root or"
        + " CAP_DAC_OVERRIDE), so permission denied cannot happen; the tests with a directory"
        + " and a FIFO at the checkpoint path cover a file that cannot be read");

    Corruption corruption = read().corruption().orElseThrow();

    assertThat(corruption.reason()).isEqualTo("checkpoint " + file.toAbsolutePath()
        + " cannot be read as one: permission denied");
    Files.setPosixFilePermissions(corruption.keptAs(),
        PosixFilePermissions.fromString("rw-------"));
    assertThat(Files.readAllBytes(corruption.keptAs())).isEqualTo(CheckpointCodec.encode(rich()));
  }

  @Test
  void aDirectoryAtTheCheckpointPathIsKeptAsideWithWhatItHoldsAndTheStoreGoesOn()
      throws Exception {
    Files.createDirectory(file);
    Files.writeString(file.resolve("inside"), "keep me");

    CheckpointRead read = read();

    assertThat(read.data()).isEqualTo(CheckpointData.empty());
    Corruption corruption = read.corruption().orElseThrow();
    assertThat(corruption.reason()).isEqualTo("checkpoint " + file.toAbsolutePath()
        + " cannot be read as one: a directory, not a regular file; not opened");
    assertThat(Files.readString(corruption.keptAs().resolve("inside"))).isEqualTo("keep me");
    write(rich());
    assertThat(read().data()).isEqualTo(rich());
  }

  @Test
  void aFifoOrALinkAtTheCheckpointPathIsKeptAsideUnopened() throws Exception {
    Process mkfifo = new ProcessBuilder("mkfifo", file.toString()).start();
    assertThat(mkfifo.waitFor()).isZero();

    assertThat(assertTimeoutPreemptively(Duration.ofSeconds(10), this::read).corruption()
        .orElseThrow().reason()).endsWith("a FIFO (named pipe), not a regular file; not opened");

    Path elsewhere = Files.write(dir.resolve("elsewhere"), CheckpointCodec.encode(rich()));
    Files.createSymbolicLink(file, elsewhere);
    Corruption link = read().corruption().orElseThrow();
    assertThat(link.reason()).endsWith("a symbolic link, which is not followed");
    assertThat(Files.isSymbolicLink(link.keptAs())).isTrue();
    assertThat(elsewhere).as("what the link points to is left alone").exists();
  }

  @Test
  void aFileLargerThanTheLimitIsKeptAsideUnreadAndNoSuchFileIsEverWritten() throws Exception {
    try (RandomAccessFile huge = new RandomAccessFile(file.toFile(), "rw")) {
      huge.setLength(3L << 30);
    }

    assertThat(read().corruption().orElseThrow().reason()).isEqualTo("checkpoint "
        + file.toAbsolutePath() + " cannot be read as one: 3221225472 bytes, more than the"
        + " limit of " + CheckpointFile.MAX_BYTES + " bytes; not read");

    CheckpointData old = CheckpointData.empty().with(UID_1, started("old"));
    write(old);
    CheckpointData tooMuch = CheckpointChild.bulky(CheckpointFile.MAX_BYTES / 2000);
    assertThatThrownBy(() -> write(tooMuch)).isInstanceOf(CheckpointTooLargeException.class)
        .hasMessageStartingWith("checkpoint " + file.toAbsolutePath() + ": cannot write: "
            + tooMuch.size() + " claims take ")
        .hasMessageEndingWith("bytes, more than the limit of " + CheckpointFile.MAX_BYTES
            + " bytes the checkpoint is read with");
    assertThat(read().data()).isEqualTo(old);
  }

  @Test
  void aWriteIntoAReadOnlyDirectoryFailsAndKeepsTheOldContent() throws Exception {
    CheckpointData old = CheckpointData.empty().with(UID_1, started("old"));
    write(old);
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("r-x------"));
    assumeFalse(canCreateFileIn(dir), "this user writes into a directory of mode 500 anyway"
        + " (root or CAP_DAC_OVERRIDE); CheckpointProcessTest covers a failing write with a file"
        + " size limit instead");

    assertThatThrownBy(() -> write(rich())).isInstanceOf(IOException.class)
        .hasMessageStartingWith("checkpoint " + file.toAbsolutePath() + ": cannot write: ")
        .hasMessageContaining("permission denied");

    assertThat(read().data()).isEqualTo(old);
    assertThat(store.writes()).isEqualTo(1);
    assertThat(names()).containsExactly("checkpoint.json", "checkpoint.json.lock");
  }

  private static boolean canCreateFileIn(Path directory) {
    try {
      Files.delete(Files.createTempFile(directory, "probe", ".tmp"));
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  @Test
  void temporaryFilesOfAnInterruptedWriteAreRemovedByTheFirstSession() throws Exception {
    Files.writeString(dir.resolve(".checkpoint.json.8231.tmp"), "half");
    Files.writeString(dir.resolve(".other.json.8231.tmp"), "not ours");
    Files.writeString(dir.resolve(".checkpoint.json.tmp"), "not a writer's name");

    read();

    assertThat(names()).containsExactly(".checkpoint.json.tmp", ".other.json.8231.tmp",
        "checkpoint.json.lock");
  }

  @Test
  void aClosedSessionCanNeitherReadNorWriteAndClosesOnce() throws Exception {
    CheckpointFile.Session session = store.lock();
    session.close();
    session.close();

    assertThatThrownBy(session::read).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> session.write(rich())).isInstanceOf(IllegalStateException.class);
    assertThat(read().data()).isEqualTo(CheckpointData.empty());
  }

  @Test
  void aThreadHoldingASessionCannotTakeASecondOne() throws Exception {
    try (CheckpointFile.Session session = store.lock()) {
      assertThatThrownBy(store::lock).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("already holds a session");
      session.write(rich());
    }
    assertThat(read().data()).isEqualTo(rich());
  }

  @Test
  void aClosedStoreCannotLock() {
    store.close();

    for (int i = 0; i < 2; i++) {
      assertThatThrownBy(store::lock).isInstanceOf(IOException.class)
          .hasMessageStartingWith("checkpoint " + file.toAbsolutePath() + ": cannot lock "
              + dir.resolve("checkpoint.json.lock"));
    }
  }

  @Test
  void theDirectoryMustExist() {
    Path missing = dir.resolve("missing").resolve("checkpoint.json");

    assertThatThrownBy(() -> CheckpointFile.open(missing))
        .isInstanceOf(NoSuchFileException.class)
        .hasMessageContaining(dir.resolve("missing").toString())
        .hasMessageContaining("does not exist");
  }
}
