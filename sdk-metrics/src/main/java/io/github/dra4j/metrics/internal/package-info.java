/** Internals of the metrics endpoint and its registry; not an API. */
package io.github.dra4j.metrics.internal;
