/**
 * Spec files on disk: atomic, durable writing (through {@code
 * io.github.dra4j.core.file.AtomicFileWriter}), writing only what changed, writing for runtimes
 * that know older spec versions, removal and orphan clean-up of spec files in a spec directory
 * ({@link io.github.dra4j.cdi.store.SpecDirectory}) with checked file names ({@link
 * io.github.dra4j.cdi.store.SpecFileName}).
 */
package io.github.dra4j.cdi.store;
