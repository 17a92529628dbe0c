package io.github.dra4j.kubelet.wire.internal;

import io.grpc.Status;

/**
 * gRPC status code names as grpc-go spells them ({@code OK}, {@code Unknown}, {@code
 * DeadlineExceeded}, ...), so the SDK's metric labels match the kubelet's own
 * {@code dra_grpc_operations_duration_seconds} series and its error texts read like the
 * kubelet's. Stateless.
 */
public final class GoCodeNames {

  private GoCodeNames() {}

  /**
   * The grpc-go name of a code.
   *
   * @param code a status code
   * @return its name in grpc-go's {@code codes.Code.String()} form
   */
  public static String of(Status.Code code) {
    return switch (code) {
      case OK -> "OK";
      case CANCELLED -> "Canceled";
      case UNKNOWN -> "Unknown";
      case INVALID_ARGUMENT -> "InvalidArgument";
      case DEADLINE_EXCEEDED -> "DeadlineExceeded";
      case NOT_FOUND -> "NotFound";
      case ALREADY_EXISTS -> "AlreadyExists";
      case PERMISSION_DENIED -> "PermissionDenied";
      case RESOURCE_EXHAUSTED -> "ResourceExhausted";
      case FAILED_PRECONDITION -> "FailedPrecondition";
      case ABORTED -> "Aborted";
      case OUT_OF_RANGE -> "OutOfRange";
      case UNIMPLEMENTED -> "Unimplemented";
      case INTERNAL -> "Internal";
      case UNAVAILABLE -> "Unavailable";
      case DATA_LOSS -> "DataLoss";
      case UNAUTHENTICATED -> "Unauthenticated";
    };
  }
}
