/**
 * Request handling of the in-memory API server: routing, the wrapped fabric8 CRUD store, test
 * hooks (faults, disabled group-versions, transformers, request log), validation and discovery.
 */
package io.github.dra4j.testing.apiserver.internal.dispatch;
