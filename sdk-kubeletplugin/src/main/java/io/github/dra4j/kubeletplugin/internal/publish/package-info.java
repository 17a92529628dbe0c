/**
 * How a plugin publishes its devices: the ResourceSlice controller started on first use, the
 * driver's publishes before the plugin serves, health taints, and the state of publishing
 * (readiness, log lines and Node Events). Internal: not API.
 */
package io.github.dra4j.kubeletplugin.internal.publish;
