/**
 * How dra4j-logging sets up logback (the service-loaded configurator, the bridge from {@code
 * java.util.logging}) and what its two encoders share (JSON values, the key-value pairs of an
 * event). Not API.
 */
package io.github.dra4j.logging.internal;
