/**
 * Crash-safe file replacement for every file dra4j writes for other processes ({@link
 * io.github.dra4j.core.file.AtomicFileWriter}): readers see the old or the new content, never a
 * partial file, and a returned write survives a power loss; plus the sweep of temporary files a
 * crashed writer left behind ({@link io.github.dra4j.core.file.LeftoverFiles}).
 */
package io.github.dra4j.core.file;
