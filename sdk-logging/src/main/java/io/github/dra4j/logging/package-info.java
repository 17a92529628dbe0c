/**
 * The logging backend a dra4j driver ships: put {@code dra4j-logging} on the driver's runtime class
 * path and its log lines go to standard error as klog-like text or as Kubernetes' structured JSON,
 * chosen by the environment variables {@value LoggingSettings#FORMAT_VARIABLE} and {@value
 * LoggingSettings#LEVEL_VARIABLE}, with the SDK's MDC keys ({@code claim}, {@code requestID},
 * {@code method}) on every line and {@code java.util.logging} (grpc-java, the JDK) routed through
 * SLF4J. Nothing needs to be called: logback finds the configuration through its service loader.
 *
 * <p>{@link KlogTextEncoder} and {@link KubernetesJsonEncoder} are public so that a {@code
 * logback.xml} (which, when present, replaces the configuration from the environment) can use
 * the same line formats.
 */
package io.github.dra4j.logging;
