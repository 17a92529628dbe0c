/**
 * Watches of the in-memory API server: a change history in resource-version order, resumable
 * watch streams over WebSockets, and selection-aware event translation.
 */
package io.github.dra4j.testing.apiserver.internal.watch;
