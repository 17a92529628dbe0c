/**
 * How long a Prometheus scrape of a running plugin's metrics endpoint takes, and how big the page
 * is: {@link io.github.dra4j.benchmarks.metrics.ScrapeBenchmark}.
 */
package io.github.dra4j.benchmarks.metrics;
