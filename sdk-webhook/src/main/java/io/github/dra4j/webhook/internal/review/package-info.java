/**
 * Internal: reading an AdmissionReview request, checking the device configurations of the claim
 * or template in it, and writing the AdmissionReview response.
 */
package io.github.dra4j.webhook.internal.review;
