/**
 * Reading spec directories like a container runtime: priorities, conflicts, load errors and
 * resolution of device names to container edits ({@link
 * io.github.dra4j.cdi.registry.CdiRegistry}).
 */
package io.github.dra4j.cdi.registry;
