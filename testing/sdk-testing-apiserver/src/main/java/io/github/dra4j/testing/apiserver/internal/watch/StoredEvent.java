package io.github.dra4j.testing.apiserver.internal.watch;

import io.github.dra4j.testing.apiserver.GroupVersionResource;
import tools.jackson.databind.JsonNode;

/**
 * One change of a stored object, kept in the watch history. The JSON trees are never modified
 * after the event is created.
 *
 * @param resourceVersion the resource version the change produced
 * @param resource the resource of the object
 * @param previous the object before the change (for a deletion: the last state, carrying the
 *     deletion's resource version), or null for a creation
 * @param current the object after the change, or null for a deletion
 */
record StoredEvent(
    long resourceVersion, GroupVersionResource resource, JsonNode previous, JsonNode current) {}
