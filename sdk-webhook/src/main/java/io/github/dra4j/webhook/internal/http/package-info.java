/**
 * Internal: the webhook's HTTP endpoints on the JDK's HTTPS server, with the content-type, size
 * and time limits of a review request, readiness, in-flight tracking and the review timer.
 */
package io.github.dra4j.webhook.internal.http;
