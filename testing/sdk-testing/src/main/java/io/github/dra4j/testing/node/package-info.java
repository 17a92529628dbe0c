/**
 * A whole node for tests, in one process and without a cluster ({@link
 * io.github.dra4j.testing.node.SimulatedNode}): the in-memory API server, the fake kubelet, the
 * scheduler's structured allocator and the container runtime's CDI resolution, with the driver
 * under test as a real kubelet plugin on real Unix sockets.
 *
 * <pre>{@code
 * try (SimulatedNode node = SimulatedNode.start("node-1")) {
 *   node.startDriver("gpu.example.com", driver, null);
 *   node.createDeviceClass("gpu", "device.driver == \"gpu.example.com\"");
 *   ResourceClaim claim = node.allocate(node.createClaim("default", "c", "gpu", "gpu", 1));
 *   PrepareOutcome prepared = node.prepare("gpu.example.com", claim);
 *   ContainerEdits edits = node.containerEdits(prepared, claim);
 * }
 * }</pre>
 *
 * <p>It also restarts the kubelet (which wipes the node's slices, as the real one does) and
 * upgrades a driver (new instance registers, the old one stops).
 */
package io.github.dra4j.testing.node;
