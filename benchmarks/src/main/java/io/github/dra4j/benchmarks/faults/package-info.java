/**
 * The reference GPU driver under attack by clients on its own node, measured at full size: idle
 * connection floods on every socket and port, device health streams that never read while health
 * changes ({@link io.github.dra4j.benchmarks.faults.HostileClientsBenchmark}); what the driver
 * holds, whether the kubelet's calls are answered and how fast, and its resident memory.
 */
package io.github.dra4j.benchmarks.faults;
