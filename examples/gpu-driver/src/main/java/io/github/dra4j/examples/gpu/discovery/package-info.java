/**
 * Finding the node's GPUs: {@link io.github.dra4j.examples.gpu.discovery.GpuDiscovery}, what it
 * finds ({@link io.github.dra4j.examples.gpu.discovery.Gpu} and its {@link
 * io.github.dra4j.examples.gpu.discovery.MigDevice}s), and simulated GPUs.
 */
package io.github.dra4j.examples.gpu.discovery;
