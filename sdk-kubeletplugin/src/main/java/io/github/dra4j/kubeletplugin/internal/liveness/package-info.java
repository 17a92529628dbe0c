/**
 * The {@code grpc.health.v1} liveness probe on TCP, SERVING only while both sockets are intact.
 * Internal: not API.
 */
package io.github.dra4j.kubeletplugin.internal.liveness;
