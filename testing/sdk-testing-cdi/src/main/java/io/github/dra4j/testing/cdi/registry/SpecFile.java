package io.github.dra4j.testing.cdi.registry;

import io.github.dra4j.cdi.spec.CdiSpec;
import java.nio.file.Path;

/**
 * A spec file that loaded and validated.
 *
 * @param path the file
 * @param priority the index of its directory in the load order; higher wins
 * @param spec its content
 */
public record SpecFile(Path path, int priority, CdiSpec spec) {}
