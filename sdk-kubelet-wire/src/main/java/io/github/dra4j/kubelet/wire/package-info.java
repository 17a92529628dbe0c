/**
 * The kubelet's plugin gRPC protocol as Java messages and stubs, shared by the two ends dra4j
 * implements: the plugin side ({@code dra4j-kubeletplugin}) and the kubelet side of tests ({@code
 * dra4j-testing-kubelet}).
 *
 * <ul>
 *   <li>{@code io.github.dra4j.kubelet.wire.registration.v1}: plugin registration ({@code
 *       GetInfo}, {@code NotifyRegistrationStatus}) on the registration socket;
 *   <li>{@code io.github.dra4j.kubelet.wire.dra.v1} and {@code dra.v1beta1}: {@code
 *       NodePrepareResources} and {@code NodeUnprepareResources} on the DRA socket;
 *   <li>{@code io.github.dra4j.kubelet.wire.health.v1} and {@code health.v1alpha1}: the device
 *       health stream ({@code NodeWatchResources});
 *   <li>{@link io.github.dra4j.kubelet.wire.ServiceNames}: the type, identifiers and service names
 *       both ends agree on.
 * </ul>
 *
 * <p>The messages are generated at build time from our own {@code .proto} files in {@code
 * src/main/proto}, written from the kubelet's wire contract (field numbers and names as the
 * kubelet sends them; v1 and v1beta1, v1 and v1alpha1 are wire-identical). Drivers do not use
 * these types: {@code dra4j-kubeletplugin} turns them into its own API. {@code
 * io.github.dra4j.kubelet.wire.internal} holds the Unix-socket transport both ends share and is
 * not API.
 */
package io.github.dra4j.kubelet.wire;
