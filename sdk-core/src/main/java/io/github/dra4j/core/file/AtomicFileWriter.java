package io.github.dra4j.core.file;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Replaces whole files atomically and durably: the one way dra4j writes state that other
 * processes read (CDI spec files, device metadata, kubeconfigs).
 *
 * <p>A write creates a hidden temporary file next to the target ({@code .<name>.<digits>.tmp}),
 * writes the bytes, sets the file mode, fsyncs the file, renames it over the target and fsyncs
 * the directory. What this guarantees, also across a crash of the process or the machine:
 *
 * <ul>
 *   <li>a reader opening the target sees either the complete old content or the complete new
 *       content, never a partial or empty file, and never a missing file where one existed;
 *   <li>once {@link #write} returns, the new content, its mode and its name survive a power loss;
 *   <li>if the write fails, the target is unchanged and the temporary file is removed; only a
 *       crash between creating and renaming the temporary file leaves it behind, with a name that
 *       no reader of {@code *.json} or {@code *.yaml} files picks up. {@link LeftoverFiles}
 *       removes such files;
 *   <li>with {@link Builder#skipUnchanged(boolean)}, a target that already holds the same bytes
 *       and mode is left alone: no temporary file, no fsync, same inode and modification time. It
 *       is then exactly as durable as its earlier writer made it (a write by this class is
 *       durable once it returned).
 * </ul>
 *
 * <p>The rename replaces a symbolic link at the target by a regular file; it never writes
 * through the link. Needs a POSIX file system (Linux). Instances are immutable and thread-safe;
 * concurrent writes of one target are safe and the last rename wins.
 *
 * <pre>{@code
 * AtomicFileWriter writer = AtomicFileWriter.builder()
 *     .fileMode(PosixFilePermissions.fromString("rw-r--r--"))
 *     .createParents(PosixFilePermissions.fromString("rwxr-xr-x"))
 *     .skipUnchanged(true)
 *     .build();
 * boolean written = writer.write(target, bytes);
 * }</pre>
 */
public final class AtomicFileWriter {
  /**
   * Names of the temporary files a write creates: hidden, then (up to 200 characters of) the
   * target's name, a dot, digits and {@code .tmp}. {@link LeftoverFiles#removeTemporaryFiles}
   * sweeps files with such names.
   */
  public static final Pattern TEMPORARY_FILE_NAMES = Pattern.compile("\\..+\\.[0-9]+\\.tmp");

  /** Longest part of the target's name kept in a temporary name; 255 bytes is the limit. */
  private static final int MAX_STEM = 200;

  private final Set<PosixFilePermission> fileMode;
  private final Set<PosixFilePermission> parentMode;
  private final boolean skipUnchanged;
  private final boolean durable;

  private AtomicFileWriter(Builder builder) {
    this.fileMode = Set.copyOf(builder.fileMode);
    this.parentMode = builder.parentMode == null ? null : Set.copyOf(builder.parentMode);
    this.skipUnchanged = builder.skipUnchanged;
    this.durable = builder.durable;
  }

  /**
   * Starts a builder: mode {@code rw-------}, missing parents not created, every write replaces.
   *
   * @return a builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Replaces the target with the bytes, or leaves it alone if {@link Builder#skipUnchanged} is
   * set and it already holds them with the configured mode.
   *
   * @param target the file to replace or create
   * @param content the complete new content
   * @return true if the file was written; false if it was left unchanged
   * @throws NoSuchFileException naming the parent directory if it is missing and {@link
   *     Builder#createParents} is not set
   * @throws IOException if the file cannot be written; the target is then unchanged
   */
  public boolean write(Path target, byte[] content) throws IOException {
    Objects.requireNonNull(content, "content");
    Path file = target.toAbsolutePath();
    if (skipUnchanged && holds(file, content)) {
      return false;
    }
    replace(file, content, true);
    return true;
  }

  /**
   * Replaces the target with a text as UTF-8; see {@link #write(Path, byte[])}.
   *
   * @param target the file to replace or create
   * @param content the complete new content
   * @return true if the file was written; false if it was left unchanged
   * @throws NoSuchFileException naming the parent directory if it is missing and {@link
   *     Builder#createParents} is not set
   * @throws IOException if the file cannot be written; the target is then unchanged
   */
  public boolean writeString(Path target, String content) throws IOException {
    return write(target, content.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Creates the target with the bytes, atomically and durably like {@link #write}, failing if it
   * exists (also if it holds the same bytes). The complete file appears at once: it is linked
   * into place, which fails on an existing name and never exposes a partial file.
   *
   * @param target the file to create
   * @param content the complete content
   * @throws FileAlreadyExistsException if the target exists; it is then unchanged
   * @throws NoSuchFileException naming the parent directory if it is missing and {@link
   *     Builder#createParents} is not set
   * @throws IOException if the file cannot be written
   */
  public void create(Path target, byte[] content) throws IOException {
    Objects.requireNonNull(content, "content");
    replace(target.toAbsolutePath(), content, false);
  }

  /** True if the file is a regular file (not a link) with exactly these bytes and the mode. */
  private boolean holds(Path file, byte[] content) throws IOException {
    PosixFileAttributes attributes;
    try {
      attributes = Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return false;
    }
    if (!attributes.isRegularFile() || attributes.size() != content.length
        || !attributes.permissions().equals(fileMode)) {
      return false;
    }
    try {
      // Bounded and without following a link: the file may have been replaced since the check.
      return Arrays.equals(
          BoundedFileReader.read(file, content.length, LinkOption.NOFOLLOW_LINKS), content);
    } catch (NoSuchFileException | RefusedFileException e) {
      return false; // removed or replaced meanwhile
    }
  }

  private void replace(Path file, byte[] content, boolean overwrite) throws IOException {
    Path directory = file.getParent();
    if (parentMode != null) {
      createDirectories(directory);
    } else if (!Files.isDirectory(directory)) {
      throw new NoSuchFileException(directory.toString(), null,
          "parent directory of " + file.getFileName() + " does not exist");
    }
    String name = file.getFileName().toString();
    String stem = name.length() > MAX_STEM ? name.substring(0, MAX_STEM) : name;
    // Hidden and ending in .tmp: readers of *.json/*.yaml files never see it.
    Path temp = Files.createTempFile(directory, "." + stem + ".", ".tmp");
    try {
      try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE)) {
        ByteBuffer buffer = ByteBuffer.wrap(content);
        while (buffer.hasRemaining()) {
          channel.write(buffer);
        }
        // chmod is not subject to the umask; the fsync below makes data and mode durable.
        Files.setPosixFilePermissions(temp, fileMode);
        if (durable) {
          channel.force(true);
        }
      }
      if (overwrite) {
        Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE);
      } else {
        // link(2) fails if the name exists and never exposes a partial file.
        Files.createLink(file, temp);
      }
    } finally {
      Files.deleteIfExists(temp);
    }
    if (durable) {
      syncDirectory(directory);
    }
  }

  /** Creates the missing directories top down, each with the parent mode, each durably. */
  private void createDirectories(Path directory) throws IOException {
    Deque<Path> missing = new ArrayDeque<>();
    for (Path p = directory; p != null && !Files.isDirectory(p); p = p.getParent()) {
      missing.push(p);
    }
    while (!missing.isEmpty()) {
      Path created = missing.pop();
      try {
        Files.createDirectory(created);
      } catch (FileAlreadyExistsException e) {
        if (Files.isDirectory(created)) {
          continue; // created by someone else meanwhile; keep their mode
        }
        throw e;
      }
      Files.setPosixFilePermissions(created, parentMode);
      syncDirectory(created.getParent());
    }
  }

  /** Makes a rename or a new entry durable; Linux allows fsync on a directory opened to read. */
  private static void syncDirectory(Path directory) throws IOException {
    try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
      channel.force(true);
    }
  }

  /**
   * Returns a description of the options, e.g. {@code AtomicFileWriter[mode=rw-r--r--,
   * parents=rwxr-xr-x, skipUnchanged=true]}.
   *
   * @return the description
   */
  @Override
  public String toString() {
    return "AtomicFileWriter[mode=" + PosixFilePermissions.toString(fileMode) + ", parents="
        + (parentMode == null ? "not created" : PosixFilePermissions.toString(parentMode))
        + ", skipUnchanged=" + skipUnchanged + ", durable=" + durable + "]";
  }

  /** Builds an {@link AtomicFileWriter}; not thread-safe, use from one thread. */
  public static final class Builder {
    private Set<PosixFilePermission> fileMode = PosixFilePermissions.fromString("rw-------");
    private Set<PosixFilePermission> parentMode;
    private boolean skipUnchanged;
    private boolean durable = true;

    private Builder() {}

    /**
     * Sets the mode of the written file, applied exactly (the umask does not apply).
     *
     * @param mode e.g. {@code PosixFilePermissions.fromString("rw-r--r--")}; default {@code
     *     rw-------}, so that nothing is readable by others unless asked for
     * @return this builder
     */
    public Builder fileMode(Set<PosixFilePermission> mode) {
      this.fileMode = Set.copyOf(Objects.requireNonNull(mode, "fileMode"));
      return this;
    }

    /**
     * Creates missing parent directories on a write, each with this mode (applied exactly).
     * Without it a missing parent fails the write with {@link NoSuchFileException}: an update
     * then never recreates a directory that was removed meanwhile.
     *
     * @param mode e.g. {@code PosixFilePermissions.fromString("rwxr-xr-x")}
     * @return this builder
     */
    public Builder createParents(Set<PosixFilePermission> mode) {
      this.parentMode = Set.copyOf(Objects.requireNonNull(mode, "createParents"));
      return this;
    }

    /**
     * Leaves a target that already holds the same bytes with the configured mode untouched, so
     * a repeated write costs one read and no temporary file or fsync. The comparison reads the
     * file; a symbolic link or a different mode counts as different.
     *
     * @param value true to compare first; default false (every write replaces)
     * @return this builder
     */
    public Builder skipUnchanged(boolean value) {
      this.skipUnchanged = value;
      return this;
    }

    /**
     * Whether a write is made durable: the file and then its directory are fsynced, so a write
     * that returned survives a power loss. Without it a write is still atomic (a reader, and a
     * process that crashes, see the old file or the new one) but a power loss may lose it or
     * leave an empty file. Turn it off only for files on a tmpfs, or files the caller can write
     * again after a reboot from a record that is itself durable.
     *
     * @param value false to skip both fsyncs; default true
     * @return this builder
     */
    public Builder durable(boolean value) {
      this.durable = value;
      return this;
    }

    /**
     * Builds the writer.
     *
     * @return the writer
     */
    public AtomicFileWriter build() {
      return new AtomicFileWriter(this);
    }
  }
}
