/**
 * An admission webhook that validates a driver's opaque device configurations when a
 * ResourceClaim or ResourceClaimTemplate is created or updated, with the very {@link
 * io.github.dra4j.resourceclaim.config.ConfigScheme} the driver's kubelet plugin decodes them with
 * after allocation, so a configuration the plugin would refuse is refused at {@code kubectl
 * apply} instead of at pod start.
 *
 * <ul>
 *   <li>{@link io.github.dra4j.webhook.AdmissionReviewHandler} answers one {@code
 *       admission.k8s.io/v1} AdmissionReview, transport-free: every problem of an object in one
 *       denial, each with its path.
 *   <li>{@link io.github.dra4j.webhook.AdmissionWebhookServer} serves it over HTTPS on a small
 *       Netty server, with {@code /readyz} and {@code /livez}, certificates reloaded when their
 *       files change, bounds on connections, sizes, time and work that hostile clients cannot
 *       get past, and a graceful stop; {@link
 *       io.github.dra4j.webhook.AdmissionWebhookServerBuilder} configures it.
 *   <li>{@link io.github.dra4j.webhook.WebhookRegistration} is the ValidatingWebhookConfiguration
 *       that sends the right requests to it.
 * </ul>
 *
 * <p>Depends on dra4j-resourceclaim, Jackson, the fabric8 admission-registration model and
 * Micrometer; no gRPC, Netty or API client, so it runs as its own small Deployment.
 */
package io.github.dra4j.webhook;
