/**
 * Shared settings of the small HTTP servers dra4j runs on the JDK's own {@code
 * com.sun.net.httpserver} (the admission webhook, the metrics endpoint).
 */
package io.github.dra4j.core.http;
