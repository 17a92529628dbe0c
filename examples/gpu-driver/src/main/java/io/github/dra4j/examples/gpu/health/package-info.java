/**
 * GPU health: sources of {@link io.github.dra4j.examples.gpu.health.GpuCondition}s (a file for
 * simulated GPUs, NVML events for real ones) and how they become device taints and the kubelet's
 * health stream.
 */
package io.github.dra4j.examples.gpu.health;
