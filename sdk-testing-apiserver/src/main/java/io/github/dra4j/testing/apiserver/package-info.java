/**
 * An in-memory Kubernetes API server for testing DRA code without a cluster: {@link
 * io.github.dra4j.testing.apiserver.InMemoryApiServer} (embedded) and {@link
 * io.github.dra4j.testing.apiserver.ApiServerCommand} (as a process), with hooks to disable
 * group-versions, inject faults, transform stored objects and count requests.
 */
package io.github.dra4j.testing.apiserver;
