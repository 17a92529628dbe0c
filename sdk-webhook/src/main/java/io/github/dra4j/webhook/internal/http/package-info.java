/**
 * Internal: the webhook's requests on dra4j's small Netty server: the review endpoint with its
 * content-type check and bounded review threads, readiness and liveness, in-flight tracking and
 * the review timer.
 */
package io.github.dra4j.webhook.internal.http;
