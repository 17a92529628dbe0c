package io.github.dra4j.core.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFileWriterTest {
  private static final FileTime LONG_AGO = FileTime.from(Instant.parse("2020-01-01T00:00:00Z"));

  @TempDir
  Path dir;

  private static AtomicFileWriter writer(String mode, boolean skipUnchanged) {
    return AtomicFileWriter.builder().fileMode(PosixFilePermissions.fromString(mode))
        .skipUnchanged(skipUnchanged).build();
  }

  private static String mode(Path path) throws IOException {
    return PosixFilePermissions.toString(
        Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS));
  }

  private static Object inode(Path path) throws IOException {
    return Files.getAttribute(path, "unix:ino", LinkOption.NOFOLLOW_LINKS);
  }

  private static List<String> names(Path directory) throws IOException {
    try (Stream<Path> files = Files.list(directory)) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void writesTheBytesWithExactlyTheModeAndLeavesNoTemporaryFile() throws Exception {
    Path target = dir.resolve("spec.json");

    assertThat(writer("rw-r--r--", false).writeString(target, "{\"a\":1}")).isTrue();
    assertThat(Files.readString(target)).isEqualTo("{\"a\":1}");
    assertThat(mode(target)).isEqualTo("rw-r--r--");

    Path secret = dir.resolve("kubeconfig");
    AtomicFileWriter.builder().build().write(secret, "token".getBytes(StandardCharsets.UTF_8));
    assertThat(mode(secret)).as("default mode").isEqualTo("rw-------");
    assertThat(names(dir)).containsExactly("kubeconfig", "spec.json");
  }

  @Test
  void aWriterWithoutFsyncStillReplacesAtomicallyWithANewFile() throws Exception {
    AtomicFileWriter writer = AtomicFileWriter.builder().durable(false).build();
    Path target = dir.resolve("claim.json");
    writer.writeString(target, "old");
    Object before = inode(target);

    assertThat(writer.writeString(target, "new")).isTrue();

    assertThat(Files.readString(target)).isEqualTo("new");
    assertThat(inode(target)).as("renamed into place, not written over").isNotEqualTo(before);
    assertThat(names(dir)).containsExactly("claim.json");
    assertThat(writer.toString()).contains("durable=false");
  }

  @Test
  void aRepeatedWriteOfTheSameBytesTouchesNothing() throws Exception {
    AtomicFileWriter writer = writer("rw-r--r--", true);
    Path target = dir.resolve("spec.json");
    assertThat(writer.writeString(target, "same")).isTrue();
    Files.setLastModifiedTime(target, LONG_AGO);
    Files.setLastModifiedTime(dir, LONG_AGO);
    Object inode = inode(target);

    assertThat(writer.writeString(target, "same")).isFalse();

    assertThat(inode(target)).isEqualTo(inode);
    assertThat(Files.getLastModifiedTime(target)).isEqualTo(LONG_AGO);
    assertThat(Files.getLastModifiedTime(dir))
        .as("no temporary file was created in the directory").isEqualTo(LONG_AGO);

    assertThat(writer.writeString(target, "different")).isTrue();
    assertThat(inode(target)).isNotEqualTo(inode);
    assertThat(Files.readString(target)).isEqualTo("different");
  }

  @Test
  void sameBytesWithAnotherModeOrBehindALinkAreRewritten() throws Exception {
    AtomicFileWriter writer = writer("rw-r--r--", true);
    Path target = dir.resolve("spec.json");
    writer.writeString(target, "same");
    Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-rw-rw-"));

    assertThat(writer.writeString(target, "same")).isTrue();
    assertThat(mode(target)).isEqualTo("rw-r--r--");

    Path elsewhere = Files.writeString(dir.resolve("elsewhere"), "same");
    Path link = Files.createSymbolicLink(dir.resolve("link.json"), elsewhere);
    assertThat(writer.writeString(link, "same")).isTrue();
    assertThat(Files.isSymbolicLink(link)).as("the link is replaced, not written through")
        .isFalse();
    assertThat(Files.readString(link)).isEqualTo("same");
  }

  @Test
  void withoutSkipUnchangedEveryWriteReplacesTheFile() throws Exception {
    AtomicFileWriter writer = writer("rw-r--r--", false);
    Path target = dir.resolve("spec.json");
    writer.writeString(target, "same");
    Object inode = inode(target);

    assertThat(writer.writeString(target, "same")).isTrue();
    assertThat(inode(target)).isNotEqualTo(inode);
  }

  @Test
  void aMissingParentFailsUnlessParentsAreCreated() throws Exception {
    Path target = dir.resolve("a/b/spec.json");
    assertThatThrownBy(() -> writer("rw-r--r--", false).writeString(target, "x"))
        .isInstanceOf(NoSuchFileException.class)
        .hasMessageContaining(dir.resolve("a/b").toString());
    assertThat(names(dir)).isEmpty();

    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
    AtomicFileWriter creating = AtomicFileWriter.builder()
        .fileMode(PosixFilePermissions.fromString("rw-r--r--"))
        .createParents(PosixFilePermissions.fromString("rwxr-xr-x")).build();
    assertThat(creating.writeString(target, "x")).isTrue();

    assertThat(Files.readString(target)).isEqualTo("x");
    assertThat(mode(dir.resolve("a"))).isEqualTo("rwxr-xr-x");
    assertThat(mode(dir.resolve("a/b"))).isEqualTo("rwxr-xr-x");
    assertThat(mode(dir)).as("existing directories keep their mode").isEqualTo("rwx------");
  }

  @Test
  void anUpdateDoesNotRecreateARemovedDirectory() throws Exception {
    Path claim = Files.createDirectory(dir.resolve("claim"));
    Path target = claim.resolve("metadata.json");
    AtomicFileWriter writer = writer("rw-r--r--", false);
    writer.writeString(target, "v1");
    Files.delete(target);
    Files.delete(claim);

    assertThatThrownBy(() -> writer.writeString(target, "v2"))
        .isInstanceOf(NoSuchFileException.class);
    assertThat(claim).doesNotExist();
  }

  @Test
  void createRefusesAnExistingFileAndKeepsIt() throws Exception {
    AtomicFileWriter writer = writer("rw-r--r--", true);
    Path target = dir.resolve("spec.json");
    writer.create(target, "first".getBytes(StandardCharsets.UTF_8));
    assertThat(mode(target)).isEqualTo("rw-r--r--");

    assertThatThrownBy(() -> writer.create(target, "first".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(FileAlreadyExistsException.class);
    assertThat(Files.readString(target)).isEqualTo("first");
    assertThat(names(dir)).containsExactly("spec.json");
  }

  @Test
  void aFailedRenameLeavesTheTargetAndNoTemporaryFile() throws Exception {
    Path target = Files.createDirectory(dir.resolve("spec.json"));
    Files.writeString(target.resolve("inside"), "kept");

    assertThatThrownBy(() -> writer("rw-r--r--", false).writeString(target, "x"))
        .isInstanceOfAny(DirectoryNotEmptyException.class, FileSystemException.class);

    assertThat(Files.readString(target.resolve("inside"))).isEqualTo("kept");
    assertThat(names(dir)).containsExactly("spec.json");
  }

  @Test
  void readersSeeTheOldOrTheNewContentAtEveryPoint() throws Exception {
    Path target = dir.resolve("state.json");
    String small = "{\"v\":\"small\"}";
    String large = "{\"v\":\"" + "x".repeat(256 * 1024) + "\"}";
    AtomicFileWriter writer = writer("rw-r--r--", false);
    writer.writeString(target, small);
    int[] reads = new int[1];
    StringBuilder failures = new StringBuilder();
    Thread reader = new Thread(() -> {
      for (int i = 0; i < 2_000; i++) {
        try {
          String seen = Files.readString(target);
          if (!seen.equals(small) && !seen.equals(large)) {
            failures.append("partial content of ").append(seen.length()).append(" chars\n");
          }
          reads[0]++;
        } catch (IOException e) {
          failures.append(e).append('\n');
        }
      }
    });
    reader.start();
    for (int i = 0; reader.isAlive() && i < 400; i++) {
      writer.writeString(target, i % 2 == 0 ? large : small);
    }
    reader.join();

    assertThat(failures.toString()).isEmpty();
    assertThat(reads[0]).isEqualTo(2_000);
    assertThat(names(dir)).containsExactly("state.json");
  }

  @Test
  void temporaryNamesMatchTheSweepPatternAndStayShortForLongTargets() throws Exception {
    String longName = "n".repeat(250) + ".json";
    Path target = dir.resolve(longName);
    writer("rw-r--r--", false).writeString(target, "x");
    assertThat(names(dir)).containsExactly(longName);
    assertThat(AtomicFileWriter.TEMPORARY_FILE_NAMES.matcher("." + longName + ".123.tmp").matches())
        .isTrue();
    assertThat(AtomicFileWriter.TEMPORARY_FILE_NAMES.matcher(longName).matches()).isFalse();
  }

  @Test
  void optionsAreShown() {
    assertThat(AtomicFileWriter.builder().build()).hasToString(
        "AtomicFileWriter[mode=rw-------, parents=not created, skipUnchanged=false,"
            + " durable=true]");
  }
}
