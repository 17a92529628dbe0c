/**
 * The reference GPU driver as an operator runs it, measured: start-up, resident memory and
 * prepare latency of its executable jar ({@link
 * io.github.dra4j.benchmarks.gpudriver.GpuDriverBenchmark}).
 */
package io.github.dra4j.benchmarks.gpudriver;
