package io.github.dra4j.lifecycle.internal.checkpoint;

import io.github.dra4j.core.file.AtomicFileWriter;
import io.github.dra4j.core.file.BoundedFileReader;
import io.github.dra4j.core.file.LeftoverFiles;
import io.github.dra4j.core.file.RefusedFileException;
import io.github.dra4j.core.file.FileLocks;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The checkpoint file of one plugin: read, write and the lock that makes read-modify-write safe,
 * also across processes (the old and the new driver pod of a rolling update share the
 * directory).
 *
 * <p>{@link #lock()} takes a fair in-process lock and then an exclusive lock on the whole of
 * {@code <file name>.lock} beside the checkpoint, and returns a {@link Session} holding both.
 * Java's file locks belong to the JVM, not to a thread, hence the in-process lock first. The lock
 * file stays open for the store's life and is never deleted: POSIX record locks belong to the
 * process and closing any descriptor of the file would drop them. Two stores on one file in one
 * JVM (tests, a hand-over inside one process) cannot both hold the file lock; the JVM reports
 * that as {@code OverlappingFileLockException} instead of waiting, so the second one polls.
 *
 * <p>Every write goes through {@link AtomicFileWriter} with mode {@code rw-------} (temporary
 * file, fsync, rename, fsync of the directory) and happens under the lock, so temporary files of
 * this checkpoint that exist when a session starts were left by a crashed writer; the first
 * session of a store removes them. A file that does not decode, or that cannot be read as a
 * checkpoint at all (too large, not a regular file), is renamed aside, never dropped; see {@link
 * Session#read()}.
 *
 * <p>Owned by one plugin, which closes it; thread-safe. A {@link Session} belongs to the thread
 * that called {@link #lock()}.
 */
public final class CheckpointFile implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(CheckpointFile.class);
  private static final DateTimeFormatter STAMP = DateTimeFormatter
      .ofPattern("yyyyMMdd'T'HHmmssSSS'Z'").withZone(ZoneOffset.UTC);
  private static final AtomicFileWriter WRITER = AtomicFileWriter.builder()
      .fileMode(PosixFilePermissions.fromString("rw-------"))
      .build();
  /** AtomicFileWriter keeps at most this many characters of the name in a temporary name. */
  private static final int TEMPORARY_STEM = 200;

  /**
   * The largest checkpoint read or written: 2 MiB, some 1,500 claims of the GPU driver (about
   * 1.4 KB each), about ten times what a node of 110 pods with a claim or two each holds. A
   * larger file is not read but kept aside like a corrupt one, and a write that would make one
   * fails, so nothing this plugin writes is ever refused when read back. Decoding takes about
   * six times the file's size in heap for a moment, 12 MiB at the limit: what the GPU driver
   * chart's 32 MiB heap has room for next to the plugin's own 14 MiB.
   */
  public static final int MAX_BYTES = 2 << 20;

  private final Path file;
  private final Path lockFile;
  private final FileChannel channel;
  private final Clock clock;
  private final ReentrantLock inProcess = new ReentrantLock(true);
  private final AtomicLong writes = new AtomicLong();
  /** The prepared claims and their devices in the content last read or written. */
  private volatile long[] prepared = {0, 0};
  private volatile CheckpointData lastSeen = CheckpointData.empty();
  private boolean swept; // guarded by inProcess

  private CheckpointFile(Path file, Path lockFile, FileChannel channel, Clock clock) {
    this.file = file;
    this.lockFile = lockFile;
    this.channel = channel;
    this.clock = clock;
  }

  /**
   * Opens the store of a checkpoint file, creating its lock file if needed. The checkpoint file
   * itself need not exist; a missing one reads as empty.
   *
   * @param file the checkpoint file, e.g. {@code <plugin data directory>/checkpoint.json}; its
   *     directory must exist
   * @return the store; close it when the plugin stops
   * @throws IOException naming the file if the directory is missing or the lock file cannot be
   *     opened
   */
  public static CheckpointFile open(Path file) throws IOException {
    return open(file, Clock.systemUTC());
  }

  /** Like {@link #open(Path)} with the clock that names kept-aside files (for tests). */
  static CheckpointFile open(Path file, Clock clock) throws IOException {
    Path absolute = file.toAbsolutePath();
    Path directory = absolute.getParent();
    if (directory == null || !Files.isDirectory(directory)) {
      throw new NoSuchFileException(String.valueOf(directory), null,
          "directory of checkpoint " + absolute.getFileName() + " does not exist");
    }
    Path lock = directory.resolve(absolute.getFileName() + ".lock");
    try {
      FileChannel channel = FileChannel.open(lock,
          Set.of(StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE),
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      return new CheckpointFile(absolute, lock, channel, clock);
    } catch (IOException e) {
      throw new IOException("checkpoint " + absolute + ": cannot open lock file " + lock + ": "
          + CheckpointValues.describe(e), e);
    }
  }

  /**
   * The checkpoint file.
   *
   * @return its absolute path
   */
  public Path file() {
    return file;
  }

  /**
   * The lock file beside the checkpoint.
   *
   * @return {@code <file>.lock}
   */
  public Path lockFile() {
    return lockFile;
  }

  /**
   * How many claims are prepared in the content last read or written: a gauge of what this
   * process last saw, since both pods of a rolling update share the file.
   *
   * @return the count, 0 before the first read
   */
  public long preparedClaims() {
    return prepared[0];
  }

  /**
   * The content last read or written by this process. The other pod of a rolling update may have
   * written since, so it is a hint to be confirmed under the lock.
   *
   * @return the claims, empty before the first read
   */
  public CheckpointData lastSeen() {
    return lastSeen;
  }

  /**
   * How many devices the prepared claims of the content last read or written hold.
   *
   * @return the count, 0 before the first read
   */
  public long preparedDevices() {
    return prepared[1];
  }

  private void remember(CheckpointData data) {
    long claims = 0;
    long devices = 0;
    for (ClaimEntry entry : data.claims().values()) {
      if (entry.phase() == ClaimPhase.PREPARE_COMPLETED) {
        claims++;
        devices += entry.allocation().size();
      }
    }
    prepared = new long[] {claims, devices};
    lastSeen = data;
  }

  /**
   * How many writes completed since the store was opened; each is two fsyncs (file and
   * directory), so a test or benchmark can count the fsyncs a call costs.
   *
   * @return the number of successful {@link Session#write} calls
   */
  public long writes() {
    return writes.get();
  }

  /**
   * Waits for the checkpoint lock: first among the threads of this process (in arrival order),
   * then among processes.
   *
   * @return the session; close it (on this thread) to let the next one in
   * @throws IOException naming the lock file if it cannot be locked, e.g. after {@link #close()}
   * @throws InterruptedException if the thread is interrupted while waiting
   * @throws IllegalStateException if this thread already holds a session of this store (it would
   *     wait for itself)
   */
  public Session lock() throws IOException, InterruptedException {
    if (inProcess.isHeldByCurrentThread()) {
      throw new IllegalStateException(
          "this thread already holds a session of checkpoint " + file);
    }
    inProcess.lockInterruptibly();
    try {
      FileLock fileLock = acquireFileLock();
      sweepOnce();
      return new Session(fileLock);
    } catch (IOException | InterruptedException | RuntimeException e) {
      inProcess.unlock();
      throw e;
    }
  }

  private FileLock acquireFileLock() throws IOException, InterruptedException {
    try {
      return FileLocks.lockExclusively(channel);
    } catch (IOException e) {
      throw new IOException("checkpoint " + file + ": cannot lock " + lockFile + ": "
          + CheckpointValues.describe(e), e);
    }
  }

  /** Removes this checkpoint's temporary files once per store; all writers hold the lock. */
  private void sweepOnce() {
    if (swept) {
      return;
    }
    swept = true;
    String name = file.getFileName().toString();
    String stem = name.length() > TEMPORARY_STEM ? name.substring(0, TEMPORARY_STEM) : name;
    Pattern mine = Pattern.compile(Pattern.quote("." + stem + ".") + "[0-9]+\\.tmp");
    try {
      List<Path> removed = LeftoverFiles.remove(file.getParent(), mine, Duration.ZERO);
      if (!removed.isEmpty()) {
        LOG.warn("checkpoint {}: removed {} temporary file(s) of an interrupted write: {}", file,
            removed.size(), removed);
      }
    } catch (IOException e) {
      LOG.warn("checkpoint {}: cannot remove temporary files of interrupted writes: {}", file,
          CheckpointValues.describe(e));
    }
  }

  /**
   * Closes the lock file; a session still open loses its file lock. Sessions cannot be taken
   * afterwards.
   */
  @Override
  public void close() {
    try {
      channel.close();
    } catch (IOException e) {
      // Nothing useful to do: the process is letting go of the file anyway.
    }
  }

  /**
   * The right to read and write the checkpoint, held from {@link #lock()} until {@link #close()}
   * (typically for a whole kubelet call). Belongs to the thread that took it; not for sharing.
   */
  public final class Session implements AutoCloseable {

    private final FileLock fileLock;
    private boolean closed;

    private Session(FileLock fileLock) {
      this.fileLock = fileLock;
    }

    /**
     * Reads the checkpoint. A missing file reads as empty. A file that does not decode
     * (truncated, garbage, bad checksum, unknown apiVersion or kind, no claims section, a claim
     * UID, namespace or name that is not valid, ...), and anything at the path that cannot be
     * read as a checkpoint this plugin wrote (more than {@link #MAX_BYTES}, a directory, a FIFO,
     * a socket or device, a symbolic link, a file it may not read), is never dropped: it is
     * renamed to {@code <file name>.corrupt-<UTC yyyyMMdd'T'HHmmssSSS'Z'>} (with {@code -1},
     * {@code -2}, ... if taken) in the same directory, the directory is fsynced, and the result
     * is empty with the {@link Corruption} set. Nothing is opened but a regular file, and no more
     * than the limit is read.
     *
     * @return the claims, and the corruption if the file was kept aside
     * @throws IOException naming the file if it exists but reading it fails (an I/O error; it is
     *     then left where it is), or if what is at the path cannot be renamed aside
     */
    public CheckpointRead read() throws IOException {
      checkOpen();
      byte[] bytes;
      try {
        bytes = BoundedFileReader.read(file, MAX_BYTES, LinkOption.NOFOLLOW_LINKS);
      } catch (NoSuchFileException e) {
        return new CheckpointRead(CheckpointData.empty(), Optional.empty());
      } catch (RefusedFileException e) {
        // Not a file this plugin wrote: setting it aside lets every other claim be served.
        return new CheckpointRead(CheckpointData.empty(), Optional.of(keepAside(
            "checkpoint " + file + " cannot be read as one: " + e.getReason())));
      } catch (AccessDeniedException e) {
        return new CheckpointRead(CheckpointData.empty(), Optional.of(keepAside(
            "checkpoint " + file + " cannot be read as one: permission denied")));
      } catch (IOException e) {
        throw new IOException("checkpoint " + file + ": cannot read: "
            + CheckpointValues.describe(e), e);
      }
      try {
        CheckpointData data = CheckpointCodec.decode(bytes);
        remember(data);
        return new CheckpointRead(data, Optional.empty());
      } catch (CheckpointFormatException e) {
        return new CheckpointRead(CheckpointData.empty(), Optional.of(keepAside(
            "checkpoint " + file + " is corrupt: " + e.getMessage())));
      }
    }

    private Corruption keepAside(String reason) throws IOException {
      Path directory = file.getParent();
      String base = file.getFileName() + ".corrupt-" + STAMP.format(clock.instant());
      Path keptAs;
      try {
        for (int n = 0;; n++) {
          keptAs = directory.resolve(n == 0 ? base : base + "-" + n);
          try {
            // Without REPLACE_EXISTING, an existing name fails instead of being replaced.
            Files.move(file, keptAs);
            break;
          } catch (FileAlreadyExistsException taken) {
            // try the next suffix
          }
        }
        syncDirectory(directory);
      } catch (IOException e) {
        throw new IOException(reason + "; cannot rename it aside: "
            + CheckpointValues.describe(e), e);
      }
      LOG.warn("{}; kept it as {} and going on with no claims", reason, keptAs);
      return new Corruption(file, keptAs, reason);
    }

    /**
     * Replaces the checkpoint atomically and durably with mode {@code rw-------}: once this
     * returns, the new content survives a crash or power loss; if it throws, the old content is
     * still in place.
     *
     * @param data the complete new content
     * @throws CheckpointTooLargeException if the file would hold more than {@link #MAX_BYTES}
     *     (nothing is written)
     * @throws IOException naming the file if it cannot be written (directory not writable, disk
     *     full, ...)
     * @throws IllegalArgumentException if the data would not read back (see {@link
     *     CheckpointCodec#encode})
     */
    public void write(CheckpointData data) throws IOException {
      checkOpen();
      byte[] bytes = CheckpointCodec.encode(data);
      if (bytes.length > MAX_BYTES) {
        throw new CheckpointTooLargeException("checkpoint " + file + ": cannot write: "
            + data.size() + " claims take " + bytes.length + " bytes, more than the limit of "
            + MAX_BYTES + " bytes the checkpoint is read with");
      }
      try {
        WRITER.write(file, bytes);
      } catch (IOException e) {
        throw new IOException("checkpoint " + file + ": cannot write: "
            + CheckpointValues.describe(e), e);
      }
      writes.incrementAndGet();
      remember(data);
    }

    private void checkOpen() {
      if (closed) {
        throw new IllegalStateException("checkpoint session of " + file + " is closed");
      }
    }

    /** Releases the file lock and the in-process lock; closing again does nothing. */
    @Override
    public void close() {
      if (closed) {
        return;
      }
      closed = true;
      try {
        fileLock.release();
      } catch (IOException e) {
        // The channel was closed with the store: the lock is gone either way.
        LOG.debug("checkpoint {}: unlock: {}", file, CheckpointValues.describe(e));
      } finally {
        inProcess.unlock();
      }
    }
  }

  /** Makes a rename durable; Linux allows fsync on a directory opened for reading. */
  private static void syncDirectory(Path directory) throws IOException {
    try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
      channel.force(true);
    }
  }
}
