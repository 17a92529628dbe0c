/**
 * A fake kubelet for testing DRA kubelet plugins without a cluster: {@link
 * io.github.dra4j.testing.kubelet.FakeKubelet} discovers registration sockets, registers plugins
 * with the real kubelet's deadlines, checks and error texts, sends prepare and unprepare calls to
 * the right plugin instance, follows device health, wipes the node's ResourceSlices like the
 * kubelet does, and records every call in a {@link io.github.dra4j.testing.kubelet.CallLog}.
 *
 * <p>Public types are the kubelet, its builder and the values it hands out; everything else in
 * this package is an internal part of one kubelet instance.
 */
package io.github.dra4j.testing.kubelet;
