package io.github.dra4j.testing.kubelet;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.Parser;

/**
 * Moves a message between two API versions whose wire format is the same (DRA v1beta1 and v1
 * claims, health v1alpha1 and v1), by serializing it and parsing the bytes as the other type.
 * Stateless.
 */
final class WireBytes {

  private WireBytes() {}

  /**
   * Reads a message's bytes as another message type.
   *
   * @param message the message
   * @param parser the parser of the wire-compatible type
   * @return the same data as the other type
   * @throws IllegalStateException if the types are not wire-compatible after all
   */
  static <M extends Message> M reparse(Message message, Parser<M> parser) {
    try {
      return parser.parseFrom(message.toByteString());
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("cannot read a "
          + message.getDescriptorForType().getFullName() + " as another API version: "
          + e.getMessage(), e);
    }
  }
}
