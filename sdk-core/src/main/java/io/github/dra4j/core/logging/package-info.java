/**
 * Logging conventions every dra4j module follows: the SLF4J MDC keys ({@link
 * io.github.dra4j.core.logging.MdcKeys}).
 */
package io.github.dra4j.core.logging;
