/**
 * Internal: writing a driver's entries of a ResourceClaim's {@code status.devices[]} next to
 * other drivers' entries, in the background, with retries on conflict.
 */
package io.github.dra4j.kubeletplugin.internal.status;
