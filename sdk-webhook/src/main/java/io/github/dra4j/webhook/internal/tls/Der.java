package io.github.dra4j.webhook.internal.tls;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The little DER (ASN.1) a PEM key reader needs: writing a tag-length-value and finding the
 * fields of a SEQUENCE. Stateless.
 */
final class Der {

  static final int INTEGER = 0x02;
  static final int OCTET_STRING = 0x04;
  static final int NULL = 0x05;
  static final int OID = 0x06;
  static final int SEQUENCE = 0x30;
  /** Context-specific, constructed, tag 0: the {@code parameters} of SEC 1's ECPrivateKey. */
  static final int CONTEXT_0 = 0xA0;

  private Der() {}

  /** One element: its tag and its content bytes. */
  // A parsing step's result, read and dropped; never compared or hashed.
  @SuppressWarnings("ArrayRecordComponent")
  record Element(int tag, byte[] content) {}

  /** Writes one element. */
  static byte[] encode(int tag, byte[]... contents) {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    for (byte[] content : contents) {
      body.writeBytes(content);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(tag);
    int length = body.size();
    if (length < 0x80) {
      out.write(length);
    } else {
      int bytes = (Integer.SIZE - Integer.numberOfLeadingZeros(length) + 7) / 8;
      out.write(0x80 | bytes);
      for (int i = bytes - 1; i >= 0; i--) {
        out.write(length >>> (8 * i));
      }
    }
    out.writeBytes(body.toByteArray());
    return out.toByteArray();
  }

  /**
   * Reads the elements inside a SEQUENCE.
   *
   * @throws IllegalArgumentException if the bytes are not one well-formed SEQUENCE
   */
  static List<Element> sequence(byte[] der) {
    Element outer = read(der, 0, der.length);
    if (outer.tag() != SEQUENCE || length(der, 0) != der.length) {
      throw new IllegalArgumentException("not a DER SEQUENCE");
    }
    List<Element> elements = new ArrayList<>();
    byte[] body = outer.content();
    int offset = 0;
    while (offset < body.length) {
      Element element = read(body, offset, body.length);
      elements.add(element);
      offset += length(body, offset);
    }
    return elements;
  }

  /** The total encoded length of the element starting at {@code offset}. */
  private static int length(byte[] der, int offset) {
    int[] header = header(der, offset, der.length);
    return header[0] + header[1];
  }

  private static Element read(byte[] der, int offset, int end) {
    int[] header = header(der, offset, end);
    int start = offset + header[0];
    return new Element(der[offset] & 0xFF, Arrays.copyOfRange(der, start, start + header[1]));
  }

  /** Returns {header length, content length}, checking that the content fits before {@code end}. */
  private static int[] header(byte[] der, int offset, int end) {
    if (offset + 2 > end) {
      throw new IllegalArgumentException("truncated DER");
    }
    int first = der[offset + 1] & 0xFF;
    int headerLength = 2;
    int length;
    if (first < 0x80) {
      length = first;
    } else {
      int bytes = first & 0x7F;
      if (bytes == 0 || bytes > 3 || offset + 2 + bytes > end) {
        throw new IllegalArgumentException("unsupported DER length");
      }
      length = 0;
      for (int i = 0; i < bytes; i++) {
        length = (length << 8) | (der[offset + 2 + i] & 0xFF);
      }
      headerLength += bytes;
    }
    if (offset + headerLength + length > end) {
      throw new IllegalArgumentException("truncated DER");
    }
    return new int[] {headerLength, length};
  }
}
