package io.github.dra4j.cdi.store;

import io.github.dra4j.cdi.codec.SpecCodec;
import io.github.dra4j.cdi.name.InvalidNameException;
import io.github.dra4j.cdi.name.Kind;
import io.github.dra4j.cdi.spec.CdiSpec;
import io.github.dra4j.cdi.validation.SpecValidator;
import io.github.dra4j.cdi.validation.ValidationRules;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes and removes the spec files of one CDI spec directory, by default {@code /var/run/cdi}.
 *
 * <p>Each write stamps the lowest spec version the spec needs, validates it with the {@link
 * ValidationRules#WRITER writer rules} (nothing is written if it fails), writes compact JSON to a
 * hidden temporary file in the same directory, fsyncs it, makes it mode 0644, renames it over
 * the target and fsyncs the directory, so the new name survives a crash too. A runtime that
 * rescans the directory therefore sees the old file or the new one, never a partial file.
 * Temporary files a crashed writer left behind are removed by {@link #removeLeftovers}. File names are built only from checked names ({@link SpecFileName}), so
 * nothing is written outside the directory.
 *
 * <p>Instances are immutable and thread-safe. Concurrent writes of the same file are safe (the
 * last rename wins); the caller owns the order of writes and removes of one claim's file.
 */
public final class SpecDirectory {
  /** Where DRA drivers write their specs: the higher-priority directory runtimes read. */
  public static final Path DEFAULT_PATH = Path.of("/var/run/cdi");

  private static final Logger LOG = LoggerFactory.getLogger(SpecDirectory.class);
  private static final Set<PosixFilePermission> FILE_MODE = PosixFilePermissions.fromString(
      "rw-r--r--");
  private static final Set<PosixFilePermission> DIRECTORY_MODE =
      PosixFilePermissions.fromString("rwxr-xr-x");

  /** The temporary files {@link #write} creates: hidden, then the file name, digits, .tmp. */
  private static final Pattern LEFTOVER = Pattern.compile("\\..+\\.[0-9]+\\.tmp");

  private final Path directory;
  private final SpecCodec codec = SpecCodec.standard();

  private SpecDirectory(Path directory) {
    this.directory = directory.toAbsolutePath().normalize();
  }

  /**
   * Uses a spec directory; it is created (mode 0755) on the first write if missing.
   *
   * @param directory the directory
   * @return the spec directory
   */
  public static SpecDirectory at(Path directory) {
    return new SpecDirectory(directory);
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
   * Returns the directory.
   *
   * @return the absolute, normalized path
   */
  public Path path() {
    return directory;
  }

  /**
   * Writes a spec to {@code vendor-class.json}, replacing an existing file.
   *
   * @param spec the spec; its version is replaced by the minimum it needs
   * @return the file written
   * @throws io.github.dra4j.cdi.validation.InvalidSpecException if the spec breaks a writer rule
   * @throws IOException if the file cannot be written
   */
  public Path write(CdiSpec spec) throws IOException {
    return write(spec, SpecFileName.forSpec(spec.parsedKind()), WriteMode.REPLACE);
  }

  /**
   * Writes a transient (per-claim) spec to {@code vendor-class_<id>.json}, replacing an existing
   * file. The ID is checked before any path is built.
   *
   * @param spec the spec; its version is replaced by the minimum it needs
   * @param id the claim UID (or another ID); see {@link SpecFileName#checkId}
   * @return the file written
   * @throws InvalidNameException if the ID is not allowed in a file name
   * @throws io.github.dra4j.cdi.validation.InvalidSpecException if the spec breaks a writer rule
   * @throws IOException if the file cannot be written
   */
  public Path writeTransient(CdiSpec spec, String id) throws IOException {
    SpecFileName.checkId(id);
    return write(spec, SpecFileName.forTransientSpec(spec.parsedKind(), id), WriteMode.REPLACE);
  }

  /**
   * Writes a spec under a given name.
   *
   * @param spec the spec; its version is replaced by the minimum it needs
   * @param name the file name
   * @param mode whether an existing file is replaced
   * @return the file written
   * @throws io.github.dra4j.cdi.validation.InvalidSpecException if the spec breaks a writer rule
   * @throws FileAlreadyExistsException in {@link WriteMode#CREATE_NEW} if the file exists
   * @throws IOException if the file cannot be written
   */
  public Path write(CdiSpec spec, SpecFileName name, WriteMode mode) throws IOException {
    Path target = resolve(name);
    CdiSpec stamped = spec.withMinimumVersion();
    SpecValidator.check(stamped, ValidationRules.WRITER, target.toString());
    byte[] content = codec.toJson(stamped);
    createDirectory();
    // Hidden and ending in .tmp: runtimes only read *.json and *.yaml.
    String stem = name.value().length() > 200 ? name.value().substring(0, 200) : name.value();
    Path temp = Files.createTempFile(directory, "." + stem + ".", ".tmp");
    try {
      try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE)) {
        ByteBuffer buffer = ByteBuffer.wrap(content);
        while (buffer.hasRemaining()) {
          channel.write(buffer);
        }
        channel.force(true);
      }
      Files.setPosixFilePermissions(temp, FILE_MODE);
      if (mode == WriteMode.REPLACE) {
        Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
      } else {
        // link(2) fails if the target exists and never exposes a partial file.
        Files.createLink(target, temp);
      }
    } finally {
      Files.deleteIfExists(temp);
    }
    syncDirectory();
    LOG.debug("wrote CDI spec {} ({} bytes, version {})", target, content.length,
        stamped.cdiVersion());
    return target;
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
   * files that cannot be parsed are left alone and logged.
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
        declared = codec.read(file.path()).kind();
      } catch (IOException e) {
        LOG.warn("not removing {}: cannot tell its kind: {}", file.path(), e.getMessage());
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
    List<Path> removed = new ArrayList<>();
    if (!Files.isDirectory(directory)) {
      return removed;
    }
    Instant cutoff = Instant.now().minus(minimumAge);
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory,
        entry -> LEFTOVER.matcher(entry.getFileName().toString()).matches())) {
      for (Path entry : entries) {
        BasicFileAttributes attributes;
        try {
          attributes = Files.readAttributes(entry, BasicFileAttributes.class,
              LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
          continue; // renamed or removed by its writer meanwhile
        }
        if (attributes.isRegularFile()
            && attributes.lastModifiedTime().toInstant().isBefore(cutoff)
            && Files.deleteIfExists(entry)) {
          LOG.info("removed leftover temporary CDI file {}", entry);
          removed.add(entry);
        }
      }
    }
    removed.sort(Comparator.comparing(Path::getFileName));
    return removed;
  }

  private void syncDirectory() throws IOException {
    // Makes the rename durable; Linux allows fsync on a directory opened for reading.
    try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
      channel.force(true);
    }
  }

  private Path resolve(SpecFileName name) {
    Path target = directory.resolve(name.value()).normalize();
    if (!directory.equals(target.getParent())) {
      throw new InvalidNameException("spec file name", name.value(),
          "resolves outside the spec directory " + directory);
    }
    return target;
  }

  private void createDirectory() throws IOException {
    if (!Files.isDirectory(directory)) {
      Files.createDirectories(directory);
      Files.setPosixFilePermissions(directory, DIRECTORY_MODE);
    }
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
