/**
 * The HTTP layer of the in-memory API server: a Vert.x server that hands each request to the
 * dispatcher and writes its answer, streaming watches as chunked HTTP (client-go, kubectl) or
 * over a WebSocket (the fabric8 client).
 */
package io.github.dra4j.testing.apiserver.internal.http;
