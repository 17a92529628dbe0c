/**
 * The machinery of {@link io.github.dra4j.lifecycle.ClaimLifecycle}: the claim store and its
 * operations ({@link io.github.dra4j.lifecycle.internal.store.ClaimStore}: the checkpointed
 * prepare and unprepare of whole kubelet calls, the repair at start, the sweep for claims gone
 * from the API server), its background schedule ({@link
 * io.github.dra4j.lifecycle.internal.store.GoneClaimSweep}), what a started lifecycle holds
 * ({@link io.github.dra4j.lifecycle.internal.store.RunningLifecycle}), the CDI spec of a claim
 * ({@link io.github.dra4j.lifecycle.internal.store.ClaimSpecs}) and the driver's state as JSON.
 * Internal: not API.
 */
package io.github.dra4j.lifecycle.internal.store;
