/** Speed of CDI spec writes: atomic, durable replacement of spec files. */
package io.github.dra4j.benchmarks.cdi;
