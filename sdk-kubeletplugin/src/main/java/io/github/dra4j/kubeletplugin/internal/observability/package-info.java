/**
 * Per-call logging with request ID, method and claim in the SLF4J MDC, the call timer, and each
 * claim's outcome: one INFO line per claim prepared or unprepared, counters by reason.
 * Internal: not API; the names it exports are listed in the README.
 */
package io.github.dra4j.kubeletplugin.internal.observability;
