/**
 * The shapes of the objects the in-memory API server serves, read from the fabric8 model
 * classes: OpenAPI v3 documents for clients such as {@code kubectl}, and the unknown-field checks
 * behind the {@code fieldValidation} query parameter.
 */
package io.github.dra4j.testing.apiserver.internal.schema;
