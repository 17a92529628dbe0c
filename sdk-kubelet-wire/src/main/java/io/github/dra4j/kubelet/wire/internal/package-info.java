/**
 * The gRPC-over-Unix-socket transport the plugin side and the fake kubelet share: epoll event
 * loops ({@link io.github.dra4j.kubelet.wire.internal.EpollEventLoops}) and grpc-go's spelling of
 * status
 * codes ({@link io.github.dra4j.kubelet.wire.internal.GoCodeNames}) for labels and error texts
 * that must read as the kubelet's do. Internal: not API, may change in any release.
 */
package io.github.dra4j.kubelet.wire.internal;
