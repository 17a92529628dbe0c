/**
 * The rules kube-apiserver applies to {@code resource.k8s.io} objects, in one place: validation
 * with the server's field paths, error types and messages, defaulting, and what its create and
 * update strategies do. The in-memory API server enforces them, and the SDK checks what it writes
 * with them before sending it.
 */
package io.github.dra4j.resourceapi;
