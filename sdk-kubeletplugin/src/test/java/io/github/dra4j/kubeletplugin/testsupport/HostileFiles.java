package io.github.dra4j.kubeletplugin.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** Files a plugin did not write, made where it reads: sparse giants and FIFOs. */
public final class HostileFiles {

  private HostileFiles() {}

  /**
   * A sparse file: its length is what a reader sees, and it takes no disk space.
   *
   * @param path where
   * @param length its length in bytes
   * @throws IOException if it cannot be made
   */
  public static void sparse(Path path, long length) throws IOException {
    try (RandomAccessFile file = new RandomAccessFile(path.toFile(), "rw")) {
      file.setLength(length);
    }
  }

  /**
   * A FIFO (named pipe): opening it to read waits for a writer, forever if none comes.
   *
   * @param path where
   * @throws Exception if {@code mkfifo} fails
   */
  public static void mkfifo(Path path) throws Exception {
    Process mkfifo = new ProcessBuilder("mkfifo", path.toString()).redirectErrorStream(true)
        .start();
    assertThat(mkfifo.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(mkfifo.exitValue())
        .as(new String(mkfifo.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
        .isZero();
  }
}
