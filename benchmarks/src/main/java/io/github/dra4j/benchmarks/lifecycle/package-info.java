/**
 * Latency and fsyncs of prepare and unprepare calls through the claim lifecycle (checkpoint and
 * CDI specs) over the plugin's Unix socket.
 */
package io.github.dra4j.benchmarks.lifecycle;
