/**
 * Keeping one driver's ResourceSlices converged: the stored desired state, the cache of current
 * slices (informer plus mutation cache), the per-pool plan (obsolete, matched, changed, generation)
 * and its execution, slice naming, dropped-field detection and event handling.
 */
package io.github.dra4j.resourceslice.internal.sync;
