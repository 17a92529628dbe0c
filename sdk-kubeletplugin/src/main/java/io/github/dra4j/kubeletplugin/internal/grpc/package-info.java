/**
 * gRPC helpers of the plugin's servers: serving one method under another service's name (v1beta1
 * served by the v1 handler), parsing requests so that bad bytes get INVALID_ARGUMENT naming the
 * message, compact message text for logs, and the handler threads with the one hand-over per
 * call that moves a call's work off the event loops. Internal: not API.
 */
package io.github.dra4j.kubeletplugin.internal.grpc;
