/**
 * The driver's per-claim work under the SDK's claim lifecycle ({@link
 * io.github.dra4j.examples.gpu.prepare.GpuClaimDriver}): configuration resolved per device,
 * sharing applied and reset, and the environment and device nodes each container gets.
 */
package io.github.dra4j.examples.gpu.prepare;
