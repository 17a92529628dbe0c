/**
 * Benchmark of the admission webhook: AdmissionReviews per second and their latency over HTTPS
 * with keep-alive ({@link io.github.dra4j.benchmarks.webhook.WebhookBenchmark}).
 */
package io.github.dra4j.benchmarks.webhook;
