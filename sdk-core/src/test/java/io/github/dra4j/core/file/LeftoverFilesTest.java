package io.github.dra4j.core.file;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LeftoverFilesTest {
  private static final Duration MINUTE = Duration.ofMinutes(1);

  @TempDir
  Path dir;

  private Path file(String name, String content, Duration age) throws Exception {
    Path path = Files.writeString(dir.resolve(name), content);
    Files.setLastModifiedTime(path, FileTime.from(Instant.now().minus(age)));
    return path;
  }

  @Test
  void aCrashedWriterLeavesTheOldTargetAndATemporaryFileTheSweepRemoves() throws Exception {
    AtomicFileWriter writer = AtomicFileWriter.builder().build();
    Path target = dir.resolve("spec.json");
    writer.writeString(target, "{\"v\":\"old\"}");
    // What a writer killed after writing half of its temporary file leaves behind.
    Path crashed = Files.createTempFile(dir, ".spec.json.", ".tmp");
    Files.writeString(crashed, "{\"v\":\"ne");
    Files.setLastModifiedTime(crashed, FileTime.from(Instant.now().minus(Duration.ofHours(1))));

    assertThat(Files.readString(target)).isEqualTo("{\"v\":\"old\"}");
    assertThat(LeftoverFiles.removeTemporaryFiles(dir, MINUTE)).containsExactly(crashed);
    assertThat(crashed).doesNotExist();
    assertThat(Files.readString(target)).isEqualTo("{\"v\":\"old\"}");
  }

  @Test
  void onlyOldRegularFilesWhoseWholeNameMatchesAreRemoved() throws Exception {
    Path old = file(".a.json.1.tmp", "x", Duration.ofHours(1));
    Path inProgress = file(".b.json.2.tmp", "x", Duration.ZERO);
    Path notHidden = file("c.json.3.tmp", "x", Duration.ofHours(1));
    Path noDigits = file(".editor-swap.tmp", "x", Duration.ofHours(1));
    Path kept = file("spec.json", "{}", Duration.ofHours(1));
    Path directory = Files.createDirectory(dir.resolve(".d.json.4.tmp"));
    Files.setLastModifiedTime(directory, FileTime.from(Instant.now().minus(Duration.ofHours(1))));
    Path link = Files.createSymbolicLink(dir.resolve(".e.json.5.tmp"), kept);

    assertThat(LeftoverFiles.removeTemporaryFiles(dir, MINUTE)).containsExactly(old);

    assertThat(inProgress).as("younger than the minimum age").exists();
    assertThat(notHidden).exists();
    assertThat(noDigits).exists();
    assertThat(kept).exists();
    assertThat(directory).isDirectory();
    assertThat(Files.isSymbolicLink(link)).isTrue();
  }

  @Test
  void anotherNamingSchemeCanBeSweptAndAMissingDirectoryHasNone() throws Exception {
    Path first = file(".dra4j-123.tmp", "x", Duration.ofHours(2));
    Path second = file(".dra4j-45.tmp", "x", Duration.ofHours(2));
    file(".dra4j-6.tmp.keep", "x", Duration.ofHours(2));

    assertThat(LeftoverFiles.remove(dir, Pattern.compile("\\.dra4j-[0-9]+\\.tmp"), MINUTE))
        .containsExactly(first, second);
    assertThat(LeftoverFiles.removeTemporaryFiles(dir.resolve("absent"), Duration.ZERO))
        .isEmpty();
  }
}
