package io.github.dra4j.core.file;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BoundedFileReaderTest {

  @TempDir
  Path dir;

  @Test
  void aRegularFileWithinTheLimitIsReadWhole() throws Exception {
    Path file = Files.writeString(dir.resolve("f"), "x".repeat(10_000));

    assertThat(BoundedFileReader.read(file, 10_000, LinkOption.NOFOLLOW_LINKS))
        .hasSize(10_000);
    assertThat(BoundedFileReader.read(Files.writeString(dir.resolve("e"), ""), 0)).isEmpty();
  }

  @Test
  void aFileOverTheLimitIsRefusedByItsSizeWithoutReadingIt() throws Exception {
    Path sparse = dir.resolve("sparse");
    try (RandomAccessFile file = new RandomAccessFile(sparse.toFile(), "rw")) {
      file.setLength(3L << 30);
    }

    assertThatThrownBy(() -> BoundedFileReader.read(sparse, 1 << 20))
        .isInstanceOf(RefusedFileException.class)
        .hasMessage(sparse + ": 3221225472 bytes, more than the limit of 1048576 bytes;"
            + " not read");
    assertThatThrownBy(() -> BoundedFileReader.read(
        Files.writeString(dir.resolve("one-more"), "abc"), 2))
        .hasMessageEndingWith("3 bytes, more than the limit of 2 bytes; not read");
  }

  @Test
  void aFileOfProcReportingNoSizeIsReadToItsEndWithinTheLimit() throws Exception {
    byte[] status = BoundedFileReader.read(Path.of("/proc/self/status"), 1 << 20);

    assertThat(new String(status, StandardCharsets.US_ASCII)).contains("Pid:");
    assertThatThrownBy(() -> BoundedFileReader.read(Path.of("/proc/self/status"), 10))
        .isInstanceOf(RefusedFileException.class)
        .hasMessageContaining("grew past the limit of 10 bytes");
  }

  @Test
  void aFifoIsRefusedWithoutBeingOpened() throws Exception {
    Path fifo = dir.resolve("fifo");
    Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
    assertThat(mkfifo.waitFor(10, TimeUnit.SECONDS)).isTrue();

    assertThatThrownBy(() -> assertTimeoutPreemptively(Duration.ofSeconds(10),
        () -> BoundedFileReader.read(fifo, 100)))
        .isInstanceOf(RefusedFileException.class)
        .hasMessage(fifo + ": a FIFO (named pipe), not a regular file; not opened");
  }

  @Test
  void aDirectoryAndADeviceAreRefused() {
    assertThatThrownBy(() -> BoundedFileReader.read(dir, 100))
        .hasMessage(dir + ": a directory, not a regular file; not opened");
    assertThatThrownBy(() -> BoundedFileReader.read(Path.of("/dev/zero"), 100))
        .hasMessage("/dev/zero: a character device, not a regular file; not opened");
  }

  @Test
  void aSymbolicLinkIsFollowedOnlyWhenAllowed() throws Exception {
    Path target = Files.writeString(dir.resolve("target"), "content");
    Path link = Files.createSymbolicLink(dir.resolve("link"), target);
    Path toDevice = Files.createSymbolicLink(dir.resolve("zero"), Path.of("/dev/zero"));

    assertThat(BoundedFileReader.read(link, 100)).isEqualTo("content".getBytes(UTF_8));
    assertThatThrownBy(() -> BoundedFileReader.read(link, 100, LinkOption.NOFOLLOW_LINKS))
        .isInstanceOf(RefusedFileException.class)
        .hasMessage(link + ": a symbolic link, which is not followed");
    assertThatThrownBy(() -> BoundedFileReader.read(toDevice, 100))
        .hasMessage(toDevice + ": a character device, not a regular file; not opened");
  }

  @Test
  void nothingAtThePathIsNoSuchFile() {
    assertThatThrownBy(() -> BoundedFileReader.read(dir.resolve("missing"), 100))
        .isInstanceOf(NoSuchFileException.class);
    assertThatThrownBy(() -> BoundedFileReader.read(dir, -1))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
