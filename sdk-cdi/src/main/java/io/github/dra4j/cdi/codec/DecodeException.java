package io.github.dra4j.cdi.codec;

/** Content the reference reader refuses; {@link SpecCodec} adds the source. */
final class DecodeException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  DecodeException(String message) {
    super(message, null, false, false);
  }
}
