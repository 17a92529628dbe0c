/**
 * The DRA node service: checks the kubelet's claim references, reads the claims, calls the driver
 * under the serialization lock, checks what it returns, and answers v1 and v1beta1 with one
 * handler. Internal: not API.
 */
package io.github.dra4j.kubeletplugin.internal.node;
