/**
 * What the in-memory API server knows about resources: kinds, scope, and the field selectors the
 * real API server supports for each of them.
 */
package io.github.dra4j.testing.apiserver.internal.catalog;
