/**
 * Internal: the settings a DaemonSet passes as environment variables, read and checked, applied
 * to the plugin's options ({@link io.github.dra4j.kubeletplugin.internal.env.EnvironmentOptions}),
 * and the API client they make, with the rate limit they can set.
 */
package io.github.dra4j.kubeletplugin.internal.env;
