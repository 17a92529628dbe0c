package io.github.dra4j.core.file;

import java.nio.file.FileSystemException;
import java.nio.file.Path;

/**
 * A file {@link BoundedFileReader} did not read: not a regular file, a symbolic link it was told
 * not to follow, or larger than the limit. The message names the path and what is there, for
 * example {@code /var/run/cdi/x.json: 3221225472 bytes, more than the limit of 1048576 bytes;
 * not read}. The content was not looked at, so the caller decides whether the file is to be set
 * aside, skipped or reported.
 */
public final class RefusedFileException extends FileSystemException {

  private static final long serialVersionUID = 1L;

  /**
   * Refuses a file.
   *
   * @param file the path
   * @param reason what is there, e.g. {@code a directory, not a regular file; not opened}
   */
  public RefusedFileException(Path file, String reason) {
    super(file.toString(), null, reason);
  }
}
