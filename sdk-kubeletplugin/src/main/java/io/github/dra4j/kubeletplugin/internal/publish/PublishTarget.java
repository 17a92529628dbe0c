package io.github.dra4j.kubeletplugin.internal.publish;

import io.github.dra4j.kubeletplugin.internal.env.DeferredClient;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;

/**
 * Where and as whom a plugin publishes its devices. Immutable.
 *
 * @param driverName the driver's name
 * @param nodeName the Node the slices belong to; empty when none was set
 * @param nodeUid the Node's UID; empty to read it from the Node
 * @param client the API client
 * @param apiServerTimeout how long the first publish waits for the informer's first list
 * @param registry where the controller's meters go
 */
public record PublishTarget(String driverName, String nodeName, String nodeUid,
    DeferredClient client, Duration apiServerTimeout, MeterRegistry registry) {}
