/** Speed of the structured allocator: allocations per second over pools of growing size. */
package io.github.dra4j.benchmarks.allocator;
