/**
 * gRPC helpers of the plugin's servers: serving one method under another service's name (v1beta1
 * served by the v1 handler), parsing requests so that bad bytes get INVALID_ARGUMENT naming the
 * message, and compact message text for logs. Internal: not API.
 */
package io.github.dra4j.kubeletplugin.internal.grpc;
