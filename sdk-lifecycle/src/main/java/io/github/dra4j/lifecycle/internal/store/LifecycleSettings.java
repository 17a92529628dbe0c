package io.github.dra4j.lifecycle.internal.store;

import io.github.dra4j.cdi.name.Kind;
import io.github.dra4j.cdi.spec.ContainerEdits;
import io.github.dra4j.lifecycle.ClaimDriver;
import java.nio.file.Path;
import java.time.Duration;

/**
 * What a {@link io.github.dra4j.lifecycle.ClaimLifecycle} was built with; a null setting takes
 * the plugin's value when the lifecycle starts. Immutable.
 *
 * @param driver the driver's per-claim hardware work
 * @param stateType the type of its state record, stored as JSON
 * @param cdiKind the CDI kind of the claims' specs, or null for the driver name's default
 * @param cdiDirectory where the specs go, or null for the plugin's CDI directory
 * @param checkpointFile the checkpoint's file name in the plugin data directory
 * @param bootIdSource where the boot ID is read, or null for the plugin's
 * @param goneClaimCheckInterval how often claims are looked up in the API server; zero for never
 * @param commonDeviceName the node-wide common device's name, or null for none
 * @param commonDeviceEdits its container edits, or null for none
 * @param <S> the driver's state record
 */
public record LifecycleSettings<S>(ClaimDriver<S> driver, Class<S> stateType, Kind cdiKind,
    Path cdiDirectory, String checkpointFile, Path bootIdSource,
    Duration goneClaimCheckInterval, String commonDeviceName, ContainerEdits commonDeviceEdits) {}
