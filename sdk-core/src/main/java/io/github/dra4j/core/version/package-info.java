/**
 * What a program was built from: {@link io.github.dra4j.core.version.BuildInfo} reads the
 * version, commit and build time a module's build writes, so every dra4j command and driver
 * prints them the same way, {@code <name> <version> (commit <sha>, built <time>)}.
 */
package io.github.dra4j.core.version;
