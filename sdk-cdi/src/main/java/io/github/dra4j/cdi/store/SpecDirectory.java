package io.github.dra4j.cdi.store;

import io.github.dra4j.cdi.codec.SpecCodec;
import io.github.dra4j.cdi.name.InvalidNameException;
import io.github.dra4j.cdi.name.Kind;
import io.github.dra4j.cdi.spec.CdiSpec;
import io.github.dra4j.cdi.spec.CdiVersion;
import io.github.dra4j.cdi.validation.SpecValidator;
import io.github.dra4j.cdi.validation.ValidationRules;
import io.github.dra4j.core.file.AtomicFileWriter;
import io.github.dra4j.core.file.BoundedFileReader;
import io.github.dra4j.core.file.LeftoverFiles;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes and removes the spec files of one CDI spec directory, by default {@code /var/run/cdi}.
 *
 * <p>Each write gives the spec its version (the lowest its features need if it names none,
 * otherwise its own; see {@link #withMaximumVersion}), validates it with the {@link
 * ValidationRules#WRITER writer rules} (nothing is written if it fails) and replaces the file with
 * compact JSON through an {@link AtomicFileWriter}: mode 0644, the directory created with mode
 * 0755 if missing, hidden temporary file, fsync, rename, directory fsync. A runtime that rescans
 * the directory therefore sees the old file or the new one, never a partial file, and a returned
 * write survives a power loss (unless {@link #withDurableWrites} turned the fsyncs off). Temporary files a crashed writer left behind are removed by
 * {@link #removeLeftovers}. File names are built only from checked names ({@link SpecFileName}),
 * so nothing is written outside the directory.
 *
 * <p>Instances are immutable and thread-safe. Concurrent writes of the same file are safe (the
 * last rename wins); the caller owns the order of writes and removes of one claim's file.
 */
public final class SpecDirectory {
  /**
   * Where DRA drivers write their specs: the higher-priority directory runtimes read. The SDK's
   * one definition of the default CDI directory.
   */
  public static final Path DEFAULT_PATH = Path.of("/var/run/cdi");

  /**
   * The largest spec file {@link #removeOrphans} reads to tell its kind: 256 KiB, hundreds of
   * times a claim's spec, and little enough to parse in a small heap. A larger file, like
   * anything that is not a regular file, is left alone.
   */
  public static final int MAX_READ_BYTES = 256 << 10;

  private static final Logger LOG = LoggerFactory.getLogger(SpecDirectory.class);
  private static final Set<PosixFilePermission> FILE_MODE = PosixFilePermissions
      .fromString("rw-r--r--");
  private static final Set<PosixFilePermission> DIRECTORY_MODE = PosixFilePermissions
      .fromString("rwxr-xr-x");
  private final Path directory;
  private final CdiVersion maximumVersion;
  private final boolean durable;
  private final AtomicFileWriter replacing;
  private final AtomicFileWriter replacingIfChanged;
  private final SpecCodec codec = SpecCodec.standard();

  private SpecDirectory(Path directory, CdiVersion maximumVersion, boolean durable) {
    this.directory = directory.toAbsolutePath().normalize();
    this.maximumVersion = maximumVersion;
    this.durable = durable;
    this.replacing = AtomicFileWriter.builder().fileMode(FILE_MODE)
        .createParents(DIRECTORY_MODE).durable(durable).build();
    this.replacingIfChanged = AtomicFileWriter.builder().fileMode(FILE_MODE)
        .createParents(DIRECTORY_MODE).skipUnchanged(true).durable(durable).build();
  }

  /**
   * Uses a spec directory; it is created (mode 0755) on the first write if missing.
   *
   * @param directory the directory
   * @return the spec directory, writing for runtimes that know {@link CdiVersion#LATEST}
   */
  public static SpecDirectory at(Path directory) {
    return new SpecDirectory(directory, CdiVersion.LATEST, true);
  }

  /**
   * Uses {@link #DEFAULT_PATH}.
   *
   * @return the spec directory
   */
  public static SpecDirectory runtimeDefault() {
    return at(DEFAULT_PATH);
  }

  /**
   * Returns a copy that writes only specs a runtime knowing spec versions up to {@code maximum}
   * accepts, e.g. {@link CdiVersion#V1_0_0} for containerd or CRI-O built with CDI 1.0.x. A
   * write is then refused ({@link io.github.dra4j.cdi.validation.InvalidSpecException}) if the
   * spec's {@code cdiVersion} is newer, or if it uses a feature of a newer version; the message
   * names every such field and the version it needs (e.g. {@code netDevices} needs 1.1.0).
   *
   * @param maximum the newest spec version the oldest runtime to support knows
   * @return the spec directory
   */
  public SpecDirectory withMaximumVersion(CdiVersion maximum) {
    return new SpecDirectory(directory, Objects.requireNonNull(maximum, "maximum"), durable);
  }

  /**
   * Returns a copy whose writes are durable or not. Durable (the default): the file and the
   * directory are fsynced, so a write that returned survives a power loss. Not durable: writes
   * stay atomic (a runtime sees the old file or the new one, also after a crash of the writer)
   * but cost no fsync, and a power loss may lose them or leave an empty file. That suits {@code
   * /var/run/cdi}, a tmpfs that a reboot empties anyway, and a writer that restores its specs
   * from a durable record at start, as the SDK's claim lifecycle does from its checkpoint.
   *
   * @param value false to skip the fsyncs
   * @return the spec directory
   */
  public SpecDirectory withDurableWrites(boolean value) {
    return new SpecDirectory(directory, maximumVersion, value);
  }

  /**
   * Returns the directory.
   *
   * @return the absolute, normalized path
   */
  public Path path() {
    return directory;
  }

  /**
   * Returns the newest spec version this directory writes.
   *
   * @return {@link CdiVersion#LATEST} unless set with {@link #withMaximumVersion}
   */
  public CdiVersion maximumVersion() {
    return maximumVersion;
  }

  /**
   * Writes a spec to {@code vendor-class.json}, replacing an existing file.
   *
   * @param spec the spec; without a version it gets the minimum its features need
   * @return the file written
   * @throws io.github.dra4j.cdi.validation.InvalidSpecException if the spec breaks a writer rule
   * @throws IOException if the file cannot be written
   */
  public Path write(CdiSpec spec) throws IOException {
    return write(spec, SpecFileName.forSpec(spec.parsedKind()), WriteMode.REPLACE).path();
  }

  /**
   * Writes a transient (per-claim) spec to {@code vendor-class_<id>.json}, replacing an existing
   * file. The ID is checked before any path is built.
   *
   * @param spec the spec; without a version it gets the minimum its features need
   * @param id the claim UID (or another ID); see {@link SpecFileName#checkId}
   * @return the file written
   * @throws InvalidNameException if the ID is not allowed in a file name
   * @throws io.github.dra4j.cdi.validation.InvalidSpecException if the spec breaks a writer rule
   * @throws IOException if the file cannot be written
   */
  public Path writeTransient(CdiSpec spec, String id) throws IOException {
    return writeTransient(spec, id, WriteMode.REPLACE).path();
  }

  /**
   * Writes a transient (per-claim) spec to {@code vendor-class_<id>.json}. With {@link
   * WriteMode#REPLACE_IF_CHANGED} a driver preparing the same claim again costs one read of the
   * file and no write.
   *
   * @param spec the spec; without a version it gets the minimum its features need
   * @param id the claim UID (or another ID); see {@link SpecFileName#checkId}
   * @param mode what to do with an existing file
   * @return the file, the spec as written and whether it was written
   * @throws InvalidNameException if the ID is not allowed in a file name
   * @throws io.github.dra4j.cdi.validation.InvalidSpecException if the spec breaks a writer rule
   * @throws FileAlreadyExistsException in {@link WriteMode#CREATE_NEW} if the file exists
   * @throws IOException if the file cannot be written
   */
  public WrittenSpec writeTransient(CdiSpec spec, String id, WriteMode mode) throws IOException {
    SpecFileName.checkId(id);
    return write(spec, SpecFileName.forTransientSpec(spec.parsedKind(), id), mode);
  }

  /**
   * Writes a spec under a given name.
   *
   * @param spec the spec; without a version it gets the minimum its features need
   * @param name the file name
   * @param mode what to do with an existing file
   * @return the file, the spec as written and whether it was written
   * @throws io.github.dra4j.cdi.validation.InvalidSpecException if the spec breaks a writer rule
   * @throws FileAlreadyExistsException in {@link WriteMode#CREATE_NEW} if the file exists
   * @throws IOException if the file cannot be written
   */
  public WrittenSpec write(CdiSpec spec, SpecFileName name, WriteMode mode) throws IOException {
    Path target = resolve(name);
    CdiSpec versioned = VersionStamp.apply(spec, maximumVersion, target.toString());
    SpecValidator.check(versioned, ValidationRules.WRITER, target.toString());
    byte[] content = codec.toJson(versioned);
    boolean written = true;
    switch (mode) {
      case REPLACE -> replacing.write(target, content);
      case REPLACE_IF_CHANGED -> written = replacingIfChanged.write(target, content);
      case CREATE_NEW -> replacing.create(target, content);
      default -> throw new IllegalArgumentException("unknown write mode " + mode);
    }
    LOG.debug("{} CDI spec {} ({} bytes, version {})", written ? "wrote" : "kept unchanged",
        target, content.length, versioned.cdiVersion());
    return new WrittenSpec(target, versioned, written);
  }

  /**
   * Removes a spec file. A missing file is not an error.
   *
   * @param name the file name
   * @return true if a file was removed
   * @throws IOException if the file exists but cannot be removed
   */
  public boolean remove(SpecFileName name) throws IOException {
    boolean removed = Files.deleteIfExists(resolve(name));
    LOG.debug("removed CDI spec {}: {}", name, removed ? "deleted" : "was not there");
    return removed;
  }

  /**
   * Removes the spec file of a kind ({@code vendor-class.json}).
   *
   * @param kind the kind
   * @return true if a file was removed
   * @throws IOException if the file exists but cannot be removed
   */
  public boolean remove(Kind kind) throws IOException {
    return remove(SpecFileName.forSpec(kind));
  }

  /**
   * Removes a transient spec file ({@code vendor-class_<id>.json}), e.g. when a claim is
   * unprepared. A missing file is not an error. The ID is checked before any path is built.
   *
   * @param kind the kind
   * @param id the claim UID or other ID
   * @return true if a file was removed
   * @throws InvalidNameException if the ID is not allowed in a file name
   * @throws IOException if the file exists but cannot be removed
   */
  public boolean removeTransient(Kind kind, String id) throws IOException {
    return remove(SpecFileName.forTransientSpec(kind, id));
  }

  /**
   * Lists the transient spec files of a kind ({@code vendor-class_<id>.json} or {@code .yaml}),
   * sorted by file name. Files whose ID part is not a valid ID are not listed.
   *
   * @param kind the kind
   * @return the files; empty if the directory does not exist
   * @throws IOException if the directory cannot be read
   */
  public List<TransientSpecFile> listTransient(Kind kind) throws IOException {
    List<TransientSpecFile> found = new ArrayList<>();
    if (!Files.isDirectory(directory)) {
      return found;
    }
    String prefix = SpecFileName.transientPrefix(kind);
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory)) {
      for (Path entry : entries) {
        String fileName = entry.getFileName().toString();
        String id = transientId(fileName, prefix);
        if (id != null && Files.isRegularFile(entry)) {
          found.add(new TransientSpecFile(entry, id));
        }
      }
    }
    found.sort(Comparator.comparing(f -> f.path().getFileName().toString()));
    return found;
  }

  /**
   * Removes the transient spec files of a kind whose ID is not in the set of IDs still prepared,
   * e.g. at driver start-up after a crash. A file is removed only if its content declares this
   * kind (so {@code vendor/class_x} specs are never taken for transients of {@code vendor/class});
   * files whose kind cannot be told are left alone and logged with the reason: a file that cannot
   * be parsed or read, a symbolic link (not followed), or one larger than {@link
   * #MAX_READ_BYTES} (not read, so a huge or sparse file costs nothing).
   *
   * <p>Writes of new transient specs must not run concurrently, or their IDs must be in {@code
   * keepIds}: a file written after the listing but missing from the set would be removed.
   *
   * @param kind the kind
   * @param keepIds IDs whose files stay, e.g. the UIDs of all claims still prepared
   * @return the files removed
   * @throws IOException if the directory cannot be read or a file cannot be removed
   */
  public List<TransientSpecFile> removeOrphans(Kind kind, Set<String> keepIds)
      throws IOException {
    List<TransientSpecFile> removed = new ArrayList<>();
    for (TransientSpecFile file : listTransient(kind)) {
      if (keepIds.contains(file.id())) {
        continue;
      }
      String declared;
      try {
        declared = codec.read(BoundedFileReader.read(file.path(), MAX_READ_BYTES,
            LinkOption.NOFOLLOW_LINKS), file.path().toString()).kind();
      } catch (IOException e) {
        LOG.warn("not removing {}: cannot tell its kind: {}", file.path(),
            e instanceof AccessDeniedException ? e.getMessage() + ": permission denied"
                : e.getMessage());
        continue;
      }
      if (!declared.equals(kind.toString())) {
        continue;
      }
      if (Files.deleteIfExists(file.path())) {
        LOG.info("removed orphaned CDI spec {} (claim {} is no longer prepared)",
            file.path(), file.id());
        removed.add(file);
      }
    }
    return removed;
  }

  /**
   * Removes the hidden temporary files ({@code .<spec file name>.<digits>.tmp}) that a writer
   * killed between creating and renaming one left behind, e.g. at driver start-up. Only files
   * last modified at least {@code minimumAge} ago are removed, so a write in progress in another
   * process is not disturbed. Runtimes never read these files; removing them only frees space.
   *
   * @param minimumAge how old a temporary file must be to count as left behind
   * @return the files removed, sorted by name
   * @throws IOException if the directory cannot be read or a file cannot be removed
   */
  public List<Path> removeLeftovers(Duration minimumAge) throws IOException {
    return LeftoverFiles.removeTemporaryFiles(directory, minimumAge);
  }

  private Path resolve(SpecFileName name) {
    Path target = directory.resolve(name.value()).normalize();
    if (!directory.equals(target.getParent())) {
      throw new InvalidNameException("spec file name", name.value(),
          "resolves outside the spec directory " + directory);
    }
    return target;
  }

  private static String transientId(String fileName, String prefix) {
    if (!fileName.startsWith(prefix)) {
      return null;
    }
    String rest = fileName.substring(prefix.length());
    String id;
    if (rest.endsWith(SpecFileName.JSON_EXTENSION)) {
      id = rest.substring(0, rest.length() - SpecFileName.JSON_EXTENSION.length());
    } else if (rest.endsWith(SpecFileName.YAML_EXTENSION)) {
      id = rest.substring(0, rest.length() - SpecFileName.YAML_EXTENSION.length());
    } else {
      return null;
    }
    try {
      return SpecFileName.checkId(id);
    } catch (InvalidNameException e) {
      return null;
    }
  }
}
