/**
 * AdmissionReviews for a driver's admission webhook tests: {@link
 * io.github.dra4j.testing.webhook.AdmissionReviews} builds the review the API server sends for a
 * ResourceClaim or ResourceClaimTemplate, {@link io.github.dra4j.testing.webhook.AdmissionResult}
 * reads the answer, whether it came from {@code AdmissionReviewHandler.handle} or over HTTPS.
 *
 * <pre>{@code
 * AdmissionDecision decision = AdmissionReviewHandler.of(DRIVER, SCHEME)
 *     .handle(AdmissionReviews.create(claim));
 * AdmissionResult result = AdmissionResult.read(decision.response());
 * assertThat(result.allowed()).isFalse();
 * assertThat(result.fields()).containsExactly("spec.devices.config[0].opaque.parameters.x");
 * }</pre>
 */
package io.github.dra4j.testing.webhook;
