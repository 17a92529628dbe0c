/** Latency and throughput of prepare and unprepare calls over the plugin's Unix socket. */
package io.github.dra4j.benchmarks.kubeletplugin;
