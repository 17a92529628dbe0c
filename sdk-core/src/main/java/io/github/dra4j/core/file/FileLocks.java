package io.github.dra4j.core.file;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;

/**
 * The one way dra4j takes an exclusive lock of a whole file shared with other processes.
 *
 * <p>Java's file locks are POSIX record locks held by the JVM, not by a thread: a second holder
 * inside the same JVM (two plugins or two stores on one file, as in tests or a hand-over within one
 * process) gets {@link OverlappingFileLockException} instead of waiting. This polls, with a short
 * growing pause, until the other holder in this JVM lets go; another process is waited for by the
 * kernel. Callers also hold an in-process lock, so threads of one owner queue fairly before they
 * get here. Stateless.
 */
public final class FileLocks {

  private static final long MAX_POLL_MILLIS = 20;

  private FileLocks() {}

  /**
   * Locks the whole file exclusively, waiting as long as it takes.
   *
   * @param channel an open, writable channel of the lock file
   * @return the lock; release it to let the next holder in
   * @throws IOException if the file cannot be locked (the caller names the file)
   * @throws InterruptedException if interrupted while polling
   */
  public static FileLock lockExclusively(FileChannel channel)
      throws IOException, InterruptedException {
    long pause = 1;
    while (true) {
      try {
        return channel.lock(0, Long.MAX_VALUE, false);
      } catch (OverlappingFileLockException heldByAnotherOwnerInThisJvm) {
        Thread.sleep(pause);
        pause = Math.min(MAX_POLL_MILLIS, pause * 2);
      }
    }
  }
}
