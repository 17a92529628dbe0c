/**
 * Label and field selectors as the real API server parses and applies them, for list, watch and
 * delete-collection requests of the in-memory API server.
 */
package io.github.dra4j.testing.apiserver.internal.selection;
