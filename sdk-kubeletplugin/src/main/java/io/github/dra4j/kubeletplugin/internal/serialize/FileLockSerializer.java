package io.github.dra4j.kubeletplugin.internal.serialize;

import io.github.dra4j.core.file.FileLocks;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Serializes calls across processes with an exclusive lock on the whole of {@code
 * serialize.lock}, held together with an in-process lock, so the old and the new driver pod of a
 * rolling update never prepare or unprepare at the same time.
 *
 * <p>Java's file locks are held by the JVM, not by a thread, so threads of one plugin first take
 * the in-process lock, then the file lock. The lock conflicts with the Go helper's OFD lock, so a
 * Go and a Java instance of a driver exclude each other as well.
 *
 * <p>The lock file stays open for the serializer's lifetime and is never deleted. POSIX record
 * locks belong to the process: closing any descriptor of the file would drop them, so opening and
 * closing the file per call (as Go does with OFD locks) is not safe in Java.
 *
 * <p>Two plugins in one JVM sharing a lock file (tests, or a hand-over inside one process) cannot
 * both hold it; the JVM reports that as {@code OverlappingFileLockException} instead of waiting,
 * so the second one polls until the first releases ({@link FileLocks}). Owned by one plugin; thread-safe.
 */
public final class FileLockSerializer implements CallSerializer {

  /** Name of the lock file inside the flock directory. */
  public static final String LOCK_FILE = "serialize.lock";

  private final Path path;
  private final FileChannel channel;
  private final ReentrantLock inProcess = new ReentrantLock(true);

  /**
   * Opens (creating if needed) the lock file.
   *
   * @param directory the flock directory (must exist)
   * @throws IOException with the message {@code serialize gRPC: lock file: <cause>} on failure
   */
  public FileLockSerializer(Path directory) throws IOException {
    this.path = directory.resolve(LOCK_FILE);
    try {
      this.channel = FileChannel.open(
          path, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    } catch (IOException e) {
      throw new IOException("serialize gRPC: lock file: " + e.getMessage(), e);
    }
  }

  /**
   * The lock file path.
   *
   * @return {@code <directory>/serialize.lock}
   */
  public Path path() {
    return path;
  }

  @Override
  public Permit acquire() throws IOException, InterruptedException {
    inProcess.lockInterruptibly();
    try {
      FileLock fileLock = lockFile();
      return () -> {
        try {
          fileLock.release();
        } catch (IOException e) {
          throw new IllegalStateException("serialize gRPC: unlock " + path + ": " + e, e);
        } finally {
          inProcess.unlock();
        }
      };
    } catch (IOException | InterruptedException | RuntimeException e) {
      inProcess.unlock();
      throw e;
    }
  }

  private FileLock lockFile() throws IOException, InterruptedException {
    try {
      return FileLocks.lockExclusively(channel);
    } catch (IOException e) {
      throw new IOException("serialize gRPC: lock file: " + e.getMessage(), e);
    }
  }

  /** Closes the lock file (releasing any lock still held). */
  @Override
  public void close() {
    try {
      channel.close();
    } catch (IOException e) {
      // Nothing useful to do: the process is letting go of the file anyway.
    }
  }
}
