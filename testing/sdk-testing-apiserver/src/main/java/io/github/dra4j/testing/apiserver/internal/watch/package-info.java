/**
 * Watches of the in-memory API server: a change history in resource-version order, resumable
 * watch streams written to a WebSocket or a chunked HTTP response, and selection-aware event
 * translation.
 */
package io.github.dra4j.testing.apiserver.internal.watch;
