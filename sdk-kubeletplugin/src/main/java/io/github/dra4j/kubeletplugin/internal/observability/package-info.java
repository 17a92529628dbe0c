/**
 * Per-call logging with request ID, method and claim in the SLF4J MDC, and the call timer.
 * Internal: not API; the names it exports are listed in the README.
 */
package io.github.dra4j.kubeletplugin.internal.observability;
