/**
 * The API server's rules for ResourceClaims: the spec on create, the status that the scheduler
 * and drivers write, and what may change on update. Internal.
 */
package io.github.dra4j.resourceapi.internal.claim;
