/**
 * The reference GPU DRA driver put together ({@link io.github.dra4j.examples.gpu.GpuDriver}):
 * discovery, the device catalog, the claim lifecycle and health, wired to a running kubelet
 * plugin. Its parts are in the subpackages; the command line is in {@code command}.
 */
package io.github.dra4j.examples.gpu;
