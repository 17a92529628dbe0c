package io.github.dra4j.kubeletplugin.internal.grpc;

import io.grpc.MethodDescriptor;
import io.grpc.Status;
import java.io.InputStream;

/**
 * A request as received: the parsed message, or why the bytes were not a valid message.
 *
 * <p>grpc-java answers a request it cannot parse with a bare UNKNOWN status. Parsing inside the
 * handler instead lets the plugin answer INVALID_ARGUMENT naming the message type and the
 * protobuf error, and log the call like any other.
 *
 * @param message the parsed request, or null
 * @param problem the parse error, or null
 * @param <Q> the request message type
 */
public record ParsedRequest<Q>(Q message, Status problem) {

  /**
   * The method with a request marshaller that never throws.
   *
   * @param method a generated method descriptor
   * @param <Q> request type
   * @param <R> response type
   * @return a descriptor whose requests arrive as {@link ParsedRequest}
   */
  public static <Q, R> MethodDescriptor<ParsedRequest<Q>, R> tolerant(
      MethodDescriptor<Q, R> method) {
    MethodDescriptor.Marshaller<Q> strict = method.getRequestMarshaller();
    String type = method.getFullMethodName() + " request";
    MethodDescriptor.Marshaller<ParsedRequest<Q>> tolerant = new MethodDescriptor.Marshaller<>() {
      @Override
      public InputStream stream(ParsedRequest<Q> value) {
        return strict.stream(value.message());
      }

      @Override
      public ParsedRequest<Q> parse(InputStream stream) {
        try {
          return new ParsedRequest<>(strict.parse(stream), null);
        } catch (RuntimeException e) {
          Throwable cause = e.getCause() != null ? e.getCause() : e;
          return new ParsedRequest<>(null, Status.INVALID_ARGUMENT
              .withDescription("not a valid " + type + ": " + cause.getMessage())
              .withCause(cause));
        }
      }
    };
    return method.toBuilder(tolerant, method.getResponseMarshaller()).build();
  }

  /**
   * The request in single-line text form for logs, or the problem.
   *
   * @return a readable form
   */
  @Override
  public String toString() {
    return message != null ? MessageText.of(message) : "<unparseable: " + problem + ">";
  }
}
