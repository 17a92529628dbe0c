/**
 * The GPU driver's demo on a simulated node: {@link io.github.dra4j.examples.gpu.demo.GpuDemo}.
 */
package io.github.dra4j.examples.gpu.demo;
