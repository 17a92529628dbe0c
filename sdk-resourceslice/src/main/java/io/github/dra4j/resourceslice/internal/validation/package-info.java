/**
 * Checks of a driver's pools before anything is sent: the controller's own consistency rules
 * across a pool, and the API server's rules ({@code dra4j-resourceapi}) on each slice it would
 * create, one message per violation.
 */
package io.github.dra4j.resourceslice.internal.validation;
