/**
 * The JNA binding of NVML ({@code libnvidia-ml.so.1}): the functions, constants and struct
 * layouts of the public {@code nvml.h} that the NVML backend uses, nothing more. Internal to
 * {@link io.github.dra4j.examples.gpu.nvml}: public only because JNA reflects on the types.
 */
package io.github.dra4j.examples.gpu.nvml.internal;
