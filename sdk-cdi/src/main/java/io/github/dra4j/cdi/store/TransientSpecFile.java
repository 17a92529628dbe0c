package io.github.dra4j.cdi.store;

import java.nio.file.Path;

/**
 * A transient (per-claim) spec file found in a spec directory.
 *
 * @param path the file
 * @param id the ID in its name ({@code vendor-class_<id>.json}), usually a claim UID
 */
public record TransientSpecFile(Path path, String id) {}
