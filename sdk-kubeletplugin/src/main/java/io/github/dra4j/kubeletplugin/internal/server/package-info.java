/**
 * What keeps the plugin's gRPC servers serving the kubelet whatever other clients do: the limits
 * of {@code ServerLimits} applied to each server (connections, handshake, calls, sizes, requests
 * still arriving, idle and age), refusals counted and logged at most once a minute, and the errors
 * after which the plugin cannot serve (an event loop that ended, a JVM error while serving) made
 * fatal. Internal: not API.
 */
package io.github.dra4j.kubeletplugin.internal.server;
