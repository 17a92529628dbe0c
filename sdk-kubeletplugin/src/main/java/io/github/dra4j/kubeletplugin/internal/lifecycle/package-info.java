/**
 * The machinery of {@link io.github.dra4j.kubeletplugin.lifecycle.ClaimLifecycle}: the
 * checkpointed prepare and unprepare of whole kubelet calls ({@link
 * io.github.dra4j.kubeletplugin.internal.lifecycle.CheckpointedClaims}), the repair at start
 * ({@link io.github.dra4j.kubeletplugin.internal.lifecycle.StartupRepair}), the background check
 * against the API server ({@link io.github.dra4j.kubeletplugin.internal.lifecycle.GoneClaimSweep}),
 * the CDI spec of a claim ({@link io.github.dra4j.kubeletplugin.internal.lifecycle.ClaimSpecs})
 * and the driver's state as JSON. Internal: not API.
 */
package io.github.dra4j.kubeletplugin.internal.lifecycle;
