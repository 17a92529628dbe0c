package io.github.dra4j.cdi.store;

/** What a spec write does when the file already exists. */
public enum WriteMode {
  /** Atomically replace the existing file; readers see either the old or the new content. */
  REPLACE,
  /**
   * Like {@link #REPLACE}, but leave an existing file that already holds exactly the bytes and
   * mode this write would produce untouched: no temporary file, no fsync, no change event for
   * runtimes watching the directory. For drivers that prepare the same claim again.
   */
  REPLACE_IF_CHANGED,
  /** Fail with {@link java.nio.file.FileAlreadyExistsException}; the existing file is kept. */
  CREATE_NEW
}
