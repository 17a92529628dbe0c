/**
 * The device health stream: the board of the driver's reported health and the {@code
 * NodeWatchResources} service that sends full snapshots at once, on change and on a refresh
 * interval, under the v1 and v1alpha1 service names. Internal: not API.
 */
package io.github.dra4j.kubeletplugin.internal.health;
