package io.github.dra4j.examples.gpu.prepare;

import io.github.dra4j.core.file.AtomicFileWriter;
import io.github.dra4j.core.file.BoundedFileReader;
import io.github.dra4j.examples.gpu.mps.MpsDaemonId;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The files of the driver's {@link ClaimRecord}s, one per claim in {@code <plugin
 * dir>/gpu-claims/<uid>.json}: written atomically and durably before each change on the node,
 * read back defensively (size-limited, no links, version checked), removed once the claim's
 * changes are undone. A file that cannot be read is renamed to {@code <uid>.json.corrupt} and
 * reported by the caller. Immutable; the driver calls it one claim at a time.
 */
final class ClaimJournal {

  /** The journal's directory name in the plugin data directory. */
  static final String DIRECTORY = "gpu-claims";

  private static final long LIMIT = 1 << 20;
  private static final String SUFFIX = ".json";
  private static final ObjectMapper JSON = JsonMapper.builder()
      .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES).build();
  private static final AtomicFileWriter WRITER = AtomicFileWriter.builder()
      .fileMode(PosixFilePermissions.fromString("rw-------"))
      .createParents(PosixFilePermissions.fromString("rwx------")).build();

  private final Path directory;

  ClaimJournal(Path pluginDataDirectory) {
    this.directory = pluginDataDirectory.resolve(DIRECTORY);
  }

  /** Thrown for a record that cannot be read; the file was set aside. */
  static final class CorruptRecordException extends IOException {
    private static final long serialVersionUID = 1L;

    CorruptRecordException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /** Writes a claim's record durably. */
  void write(ClaimRecord record) throws IOException {
    WRITER.write(file(record.claimUid()), JSON.writeValueAsBytes(record));
  }

  /**
   * Reads a claim's record.
   *
   * @return empty if there is none
   * @throws CorruptRecordException if it cannot be read (it is set aside)
   */
  Optional<ClaimRecord> read(String claimUid) throws IOException {
    Path file = file(claimUid);
    if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
      return Optional.empty();
    }
    try {
      ClaimRecord record = JSON.readValue(BoundedFileReader.read(file, LIMIT,
          LinkOption.NOFOLLOW_LINKS), ClaimRecord.class);
      if (record.version() != ClaimRecord.VERSION) {
        throw new IOException("version " + record.version() + ", this driver reads "
            + ClaimRecord.VERSION);
      }
      if (!claimUid.equals(record.claimUid()) || record.phase() == null
          || record.bootId() == null) {
        throw new IOException("it names claim " + record.claimUid() + ", phase "
            + record.phase() + ", boot " + record.bootId());
      }
      for (ClaimRecord.DaemonStep daemon : record.daemons()) {
        if (!MpsDaemonId.isId(daemon.id())) {
          throw new IOException("MPS daemon ID \"" + daemon.id() + "\" is not valid");
        }
      }
      return Optional.of(record);
    } catch (IOException | JacksonException | IllegalArgumentException e) {
      Path aside = file.resolveSibling(file.getFileName() + ".corrupt");
      Files.move(file, aside, StandardCopyOption.REPLACE_EXISTING);
      throw new CorruptRecordException("the driver's record of claim " + claimUid + " ("
          + file + ") cannot be read and was kept aside as " + aside + ": " + e.getMessage(), e);
    }
  }

  /** Removes a claim's record; none is fine. */
  void remove(String claimUid) throws IOException {
    Files.deleteIfExists(file(claimUid));
  }

  /** The UIDs of the claims that have a record. */
  List<String> claims() throws IOException {
    if (!Files.isDirectory(directory)) {
      return List.of();
    }
    List<String> uids = new ArrayList<>();
    try (Stream<Path> files = Files.list(directory)) {
      for (Path file : files.sorted().toList()) {
        String name = file.getFileName().toString();
        if (name.endsWith(SUFFIX) && !name.startsWith(".")) {
          String uid = name.substring(0, name.length() - SUFFIX.length());
          try {
            uids.add(MpsDaemonId.checkUid(uid));
          } catch (IllegalArgumentException e) {
            // not a record this driver wrote; left alone
          }
        }
      }
    }
    return uids;
  }

  private Path file(String claimUid) {
    return directory.resolve(MpsDaemonId.checkUid(claimUid) + SUFFIX);
  }

  /** The journal's directory. */
  Path directory() {
    return directory;
  }
}
