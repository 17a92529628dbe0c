package io.github.dra4j.cdi.store;

/** What a spec write does when the file already exists. */
public enum WriteMode {
  /** Atomically replace the existing file; readers see either the old or the new content. */
  REPLACE,
  /** Fail with {@link java.nio.file.FileAlreadyExistsException}; the existing file is kept. */
  CREATE_NEW
}
