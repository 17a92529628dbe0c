package io.github.dra4j.webhook;

/**
 * A request body is not an {@code admission.k8s.io/v1} AdmissionReview this webhook can answer:
 * not JSON, another API version or kind, or a request without its UID or object. The HTTPS
 * server answers it with status 400 and this message; there is no review to deny, since a denial
 * must echo the request's UID.
 */
public final class InvalidAdmissionReviewException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  /**
   * An exception naming what is wrong.
   *
   * @param message the field and value that make the body no review
   */
  public InvalidAdmissionReviewException(String message) {
    super(message);
  }
}
