/**
 * Crash-safe file replacement for every file dra4j writes for other processes ({@link
 * io.github.dra4j.core.file.AtomicFileWriter}): readers see the old or the new content, never a
 * partial file, and a returned write survives a power loss; plus the sweep of temporary files a
 * crashed writer left behind ({@link io.github.dra4j.core.file.LeftoverFiles}); and the bounded
 * read of a file someone else may have put in place ({@link
 * io.github.dra4j.core.file.BoundedFileReader}): only a regular file is opened, never a FIFO, and
 * its size is checked against a limit before it is read.
 */
package io.github.dra4j.core.file;
