/**
 * Crash tests of the claim lifecycle: a driver process ({@link
 * io.github.dra4j.benchmarks.crash.CrashTestDriverProcess}) whose hardware is a directory of
 * device files, driven by {@link io.github.dra4j.benchmarks.crash.CrashHarness} as a kubelet would
 * while it is killed with SIGKILL at random moments and at planned {@link
 * io.github.dra4j.benchmarks.crash.CrashPoint}s, the kubelet restarts and the node reboots; {@link
 * io.github.dra4j.benchmarks.crash.Invariants} then checks that no preparation was lost, doubled
 * or left behind. {@link io.github.dra4j.benchmarks.crash.CrashBenchmark} is the long run.
 */
package io.github.dra4j.benchmarks.crash;
