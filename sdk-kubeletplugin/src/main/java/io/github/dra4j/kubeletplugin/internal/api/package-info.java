/**
 * Internal: the plugin's own requests to the API server (claim reads, claim status writes), each
 * bounded by the deadline of what it is made for, a kubelet call's or a fixed span.
 */
package io.github.dra4j.kubeletplugin.internal.api;
