/**
 * Crash tests of the claim lifecycle: a driver process ({@link
 * io.github.dra4j.benchmarks.crash.CrashTestDriverProcess}) whose hardware is a directory of
 * device files, driven by {@link io.github.dra4j.benchmarks.crash.CrashHarness} as a kubelet would
 * while it is killed with SIGKILL at random moments and at planned {@link
 * io.github.dra4j.benchmarks.crash.CrashPoint}s, the kubelet restarts, the node reboots and the
 * API server hangs or answers 500 ({@code ApiFaults}); {@link
 * io.github.dra4j.benchmarks.crash.Invariants} then checks that no preparation was lost, doubled
 * or left behind. {@link io.github.dra4j.benchmarks.crash.CrashBenchmark} is the long run; {@link
 * io.github.dra4j.benchmarks.crash.ApiHangBenchmark} is the attack of many prepares against an API
 * server that never answers.
 */
package io.github.dra4j.benchmarks.crash;
