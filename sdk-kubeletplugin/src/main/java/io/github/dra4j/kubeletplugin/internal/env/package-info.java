/**
 * Internal: the settings a DaemonSet passes as environment variables, read and checked, and the
 * API client's rate limit they can set.
 */
package io.github.dra4j.kubeletplugin.internal.env;
