/**
 * An in-memory Kubernetes API server for testing DRA code without a cluster: {@link
 * io.github.dra4j.testing.apiserver.InMemoryApiServer}, embedded in a test or run as a process
 * by the {@code apiserver} command of the dra4j command line for a driver process, client-go,
 * {@code kubectl} or {@code curl}, with hooks to disable group-versions, inject faults, transform
 * stored objects and count requests.
 *
 * <p>Packages named {@code internal} below this one are its implementation and not API.
 */
package io.github.dra4j.testing.apiserver;
