/**
 * Reading spec directories as a container runtime does, for tests: priorities, conflicts, load
 * errors and resolution of qualified device names to container edits ({@link
 * io.github.dra4j.testing.cdi.registry.CdiRegistry}).
 */
package io.github.dra4j.testing.cdi.registry;
