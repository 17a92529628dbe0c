package io.github.dra4j.core.logging;

/**
 * The SLF4J MDC keys dra4j sets while it runs code for a request, so that a driver's own log lines
 * carry them and a log pipeline can filter on one name, whichever module logged.
 */
public final class MdcKeys {

  /**
   * The request's ID: the kubelet call's ID in a kubelet plugin, the AdmissionReview's UID in the
   * admission webhook.
   */
  public static final String REQUEST_ID = "requestID";

  /** The gRPC method of a kubelet call, such as {@code NodePrepareResources}. */
  public static final String METHOD = "method";

  /**
   * The claim concerned: {@code <namespace>/<name>} (with the UID where known) in a kubelet
   * plugin, the reviewed object's {@code <namespace>/<name>} in the admission webhook.
   */
  public static final String CLAIM = "claim";

  private MdcKeys() {}
}
