/** Cost of publishing and converging ResourceSlices: writes and time per change. */
package io.github.dra4j.benchmarks.resourceslice;
