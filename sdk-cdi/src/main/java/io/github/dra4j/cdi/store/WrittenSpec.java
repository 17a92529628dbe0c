package io.github.dra4j.cdi.store;

import io.github.dra4j.cdi.spec.CdiSpec;
import java.nio.file.Path;

/**
 * What a spec write did.
 *
 * @param path the spec file
 * @param spec the spec as it is in the file, with the version it was written with
 * @param written true if the file was written; false if {@link WriteMode#REPLACE_IF_CHANGED}
 *     found it already holding the same bytes and left it untouched
 */
public record WrittenSpec(Path path, CdiSpec spec, boolean written) {}
