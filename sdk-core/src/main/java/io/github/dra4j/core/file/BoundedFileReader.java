package io.github.dra4j.core.file;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;

/**
 * Reads a whole file that something else may have put in place, without trusting it: only a
 * regular file is opened, never a FIFO (opening one to read waits for a writer, forever if none
 * comes), a socket, a device or a directory; its size is checked before a byte is read, so a
 * huge or sparse file costs nothing; and at most the limit is read even if the file grows
 * meanwhile. A file that fails a check is refused with a {@link RefusedFileException} naming the
 * path and what is there (for a file that is too large: its size and the limit), so the caller
 * can set it aside or skip it.
 *
 * <p>The type of the file is checked with {@code lstat} before it is opened and its size again
 * with {@code fstat} on the opened file; what is opened is the path as it was checked unless
 * someone with write access to its directory replaces it in between, which only the file's owner
 * can do. Stateless.
 *
 * <pre>{@code
 * byte[] bytes = BoundedFileReader.read(file, 4 << 20, LinkOption.NOFOLLOW_LINKS);
 * }</pre>
 */
public final class BoundedFileReader {

  /** The largest limit: what one Java array holds, with room for the byte read past it. */
  public static final int MAX_LIMIT = Integer.MAX_VALUE - 16;

  private BoundedFileReader() {}

  /**
   * Reads a regular file of at most {@code limit} bytes.
   *
   * @param file the file
   * @param limit the most bytes it may hold, at most {@link #MAX_LIMIT}
   * @param options {@link LinkOption#NOFOLLOW_LINKS} to refuse a symbolic link (for files the
   *     caller writes itself and never as a link); without it a link is followed and the file it
   *     points to is checked
   * @return the content
   * @throws java.nio.file.NoSuchFileException if there is nothing at the path
   * @throws RefusedFileException if it is not a regular file, is a symbolic link that is not
   *     followed, or holds more than the limit
   * @throws IOException if it cannot be read, e.g. {@link java.nio.file.AccessDeniedException}
   */
  public static byte[] read(Path file, long limit, LinkOption... options) throws IOException {
    Objects.requireNonNull(file, "file");
    if (limit < 0 || limit > MAX_LIMIT) {
      throw new IllegalArgumentException("limit " + limit + " is not within 0.." + MAX_LIMIT);
    }
    boolean follow = !Arrays.asList(options).contains(LinkOption.NOFOLLOW_LINKS);
    BasicFileAttributes attributes = follow
        ? Files.readAttributes(file, BasicFileAttributes.class)
        : Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    if (attributes.isSymbolicLink()) {
      throw new RefusedFileException(file, "a symbolic link, which is not followed");
    }
    if (!attributes.isRegularFile()) {
      throw new RefusedFileException(file, describe(file, attributes, follow)
          + ", not a regular file; not opened");
    }
    if (attributes.size() > limit) {
      throw tooLarge(file, attributes.size(), limit);
    }
    Set<OpenOption> open = new HashSet<>(Set.of(StandardOpenOption.READ));
    if (!follow) {
      open.add(LinkOption.NOFOLLOW_LINKS);
    }
    try (SeekableByteChannel channel = Files.newByteChannel(file, open)) {
      long size = channel.size();
      if (size > limit) {
        throw tooLarge(file, size, limit);
      }
      // Files of /proc report 0 and have content: read to the end, never past the limit.
      ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(limit, Math.max(size, 4096)) + 1);
      while (channel.read(buffer) >= 0) {
        if (!buffer.hasRemaining()) {
          if (buffer.capacity() > limit) {
            throw new RefusedFileException(file, "grew past the limit of " + limit
                + " bytes while it was read");
          }
          int grown = (int) Math.min(limit + 1, 2L * buffer.capacity());
          buffer = ByteBuffer.allocate(grown).put(buffer.flip());
        }
      }
      return Arrays.copyOf(buffer.array(), buffer.position());
    }
  }

  private static RefusedFileException tooLarge(Path file, long size, long limit) {
    return new RefusedFileException(file, size + " bytes, more than the limit of " + limit
        + " bytes; not read");
  }

  /** What a file that is not regular is: {@code a directory}, {@code a FIFO}, ... */
  private static String describe(Path file, BasicFileAttributes attributes, boolean follow) {
    if (attributes.isDirectory()) {
      return "a directory";
    }
    try {
      Object mode = follow ? Files.getAttribute(file, "unix:mode")
          : Files.getAttribute(file, "unix:mode", LinkOption.NOFOLLOW_LINKS);
      switch (((Integer) mode) & 0170000) {
        case 0010000 -> {
          return "a FIFO (named pipe)";
        }
        case 0140000 -> {
          return "a socket";
        }
        case 0020000 -> {
          return "a character device";
        }
        case 0060000 -> {
          return "a block device";
        }
        default -> {
        }
      }
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      // Not a Unix file system view: say less.
    }
    return "a special file";
  }
}
