/**
 * The GPU backend the driver runs on: {@link io.github.dra4j.examples.gpu.backend.GpuBackend}
 * bundles discovery, health, sharing commands and device nodes, so simulated GPUs and NVIDIA GPUs
 * are one switch apart.
 */
package io.github.dra4j.examples.gpu.backend;
