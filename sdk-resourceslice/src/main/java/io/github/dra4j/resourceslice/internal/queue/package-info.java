/**
 * The controller's work queue of pool names and the rate limiter of failed syncs.
 */
package io.github.dra4j.resourceslice.internal.queue;
