package io.github.dra4j.examples.gpu.prepare;

import io.github.dra4j.core.file.AtomicFileWriter;
import io.github.dra4j.core.file.BoundedFileReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * GPUs whose sharing could not be reset when their claim was unprepared, in {@code <plugin
 * dir>/gpu-pending-resets.json}: the unprepare completed (so the devices are free), and the reset
 * is run again before the next prepare that changes the GPU, and at every start. Written
 * atomically and durably; an unreadable file counts as empty and is reported by the caller. Owned
 * by the claim driver, which calls it one claim at a time.
 */
final class PendingResets {

  /** The file's name in the plugin data directory. */
  static final String FILE = "gpu-pending-resets.json";

  private static final ObjectMapper JSON = JsonMapper.builder().build();
  private static final AtomicFileWriter WRITER = AtomicFileWriter.builder()
      .fileMode(PosixFilePermissions.fromString("rw-------")).build();

  /**
   * The file's content.
   *
   * @param version the format, 1
   * @param gpus per GPU UUID: the strategy to undo and why it is pending
   */
  record Content(int version, Map<String, Pending> gpus) {
    Content {
      gpus = gpus == null ? Map.of() : Map.copyOf(gpus);
    }
  }

  /**
   * One GPU's reset.
   *
   * @param strategy {@code TimeSlicing} or {@code MPS}
   * @param reason the error of the last try
   */
  record Pending(String strategy, String reason) {}

  private final Path file;

  PendingResets(Path pluginDataDirectory) {
    this.file = pluginDataDirectory.resolve(FILE);
  }

  /** The pending resets; empty if none or unreadable (then {@link IOException}). */
  Map<String, Pending> read() throws IOException {
    if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
      return new TreeMap<>();
    }
    try {
      Content content = JSON.readValue(BoundedFileReader.read(file, 1 << 20,
          LinkOption.NOFOLLOW_LINKS), Content.class);
      if (content.version() != 1) {
        throw new IOException("version " + content.version() + ", this driver reads 1");
      }
      return new TreeMap<>(content.gpus());
    } catch (JacksonException | IOException e) {
      Files.deleteIfExists(file);
      throw new IOException("the pending GPU resets in " + file + " cannot be read and were"
          + " dropped: " + e.getMessage(), e);
    }
  }

  /** Replaces the pending resets. */
  void write(Map<String, Pending> gpus) throws IOException {
    if (gpus.isEmpty()) {
      Files.deleteIfExists(file);
      return;
    }
    WRITER.write(file, JSON.writeValueAsBytes(new Content(1, new TreeMap<>(gpus))));
  }
}
