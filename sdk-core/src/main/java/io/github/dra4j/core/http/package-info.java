/**
 * The small HTTP server dra4j's admission webhook and metrics endpoint run on ({@link
 * io.github.dra4j.core.http.SmallHttpServer}, on Netty, which is an optional dependency of this
 * module: a module that starts a server declares it), with its limits on time, connections and
 * sizes, and the reaction to fatal failures ({@link io.github.dra4j.core.http.FatalErrors}).
 */
package io.github.dra4j.core.http;
