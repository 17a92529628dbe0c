/**
 * The driver's command line ({@link io.github.dra4j.examples.gpu.command.GpuDriverMain}): the
 * kubelet plugin, the admission webhook and the demo, each setting a flag with the reference
 * drivers' environment variable as its default.
 */
package io.github.dra4j.examples.gpu.command;
