package io.github.dra4j.resourceapi.internal.write;

import io.github.dra4j.resourceapi.FeatureGates;
import java.time.Instant;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What a write needs beyond the object: the server's feature gates, its clock, the version the
 * object was sent in, and how to read a namespace's labels (admin access depends on them).
 * Immutable.
 *
 * @param gates the feature gates
 * @param clock the server's clock
 * @param sentApiVersion e.g. {@code resource.k8s.io/v1beta1}
 * @param namespaceLabels a namespace's labels by name, null if the namespace does not exist; null
 *     itself if namespaces are not known (admin access then is not checked)
 */
record WriteContext(FeatureGates gates, Supplier<Instant> clock, String sentApiVersion,
    Function<String, Map<String, String>> namespaceLabels) {}
