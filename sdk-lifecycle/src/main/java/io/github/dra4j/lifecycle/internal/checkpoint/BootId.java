package io.github.dra4j.lifecycle.internal.checkpoint;

import io.github.dra4j.core.file.BoundedFileReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The Linux boot ID: a random UUID the kernel picks at every boot. A checkpoint entry records
 * the boot it was written in, so that after a reboot the driver can tell that state the reboot
 * wiped (device nodes, runtime configuration) must be set up again. Stateless.
 */
public final class BootId {

  private static final int MAX_LENGTH = 128;

  /** The most read of the source: a boot ID with white space around it is far shorter. */
  private static final int MAX_BYTES = 4096;

  private BootId() {}

  /**
   * Reads the boot ID from a file, without surrounding white space.
   *
   * @param source the file, normally {@code /proc/sys/kernel/random/boot_id}
   * @return the boot ID, e.g. {@code 6ece89dd-aedc-47b0-9445-1012847c2a21}
   * @throws IOException naming the file if it cannot be read, is not a regular file (a FIFO is
   *     not opened), holds more than 4096 bytes, is empty, or does not hold one word of at most
   *     128 printable characters
   */
  public static String read(Path source) throws IOException {
    String text;
    try {
      // A link is followed: a simulated node may point the source at a file it rewrites.
      text = new String(BoundedFileReader.read(source, MAX_BYTES), StandardCharsets.UTF_8)
          .strip();
    } catch (IOException e) {
      throw new IOException(
          "boot ID " + source + ": cannot read: " + CheckpointValues.describe(e), e);
    }
    if (text.isEmpty()) {
      throw new IOException("boot ID " + source + ": the file is empty");
    }
    if (text.length() > MAX_LENGTH || !text.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
      throw new IOException("boot ID " + source + ": not a boot ID: "
          + CheckpointValues.quote(text));
    }
    return text;
  }
}
