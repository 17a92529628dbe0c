/**
 * A dra4j driver against the Go floor, the side-by-side comparison: {@link
 * io.github.dra4j.benchmarks.floor.FloorComparisonBenchmark} starts an in-memory API server,
 * a bare grpc-go DRA server (the Go program {@code floor}) and the small vendor driver {@link
 * io.github.dra4j.benchmarks.floor.FloorPeerDriver} as a JVM process, drives both with a Go
 * kubelet-side client ({@code bench}; docs/performance.md says what both programs do) in
 * alternating runs, and prints latency, throughput, CPU per call, start-up, shutdown and memory
 * side by side, with the settings it ran with. With {@code
 * -Dprofile=<dir>} it also records the driver under each load with JFR and summarizes where the
 * time and the allocations go ({@link io.github.dra4j.benchmarks.floor.JfrSummary}). {@link
 * io.github.dra4j.benchmarks.floor.JvmFloorServer} is the Go floor server in Java, the least a JVM
 * serving DRA over grpc-java takes, which {@code GpuDriverBenchmark -Dfloor=true} measures beside
 * the GPU driver.
 */
package io.github.dra4j.benchmarks.floor;
