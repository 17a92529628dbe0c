package io.github.dra4j.lifecycle.internal.checkpoint;

import io.github.dra4j.core.logging.LogValues;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.databind.JsonNode;

/**
 * The top level of a checkpoint file as read with Jackson's streaming parser: each member's
 * value and, for objects and arrays, where its bytes start and end in the file. The byte range
 * is what the checksum covers: the value exactly as it stands in the file, not a re-encoding of
 * it, so a member that a newer version added inside it still checks. Scanning knows nothing of
 * any {@code apiVersion}; it only requires one JSON object with unique member names and nothing
 * after it. The bytes are shared, not copied (the encoder scans its own output, then patches the
 * checksum into it and drops the envelope); the rest is immutable. Used by one thread.
 */
final class Envelope {

  /**
   * A top-level member: its value, where the value starts in the file and, for an object or
   * array, where it ends: its bytes are {@code [start, end)}. The end of other values is -1.
   */
  record Member(JsonNode value, int start, int end) {}

  private final byte[] bytes;
  private final Map<String, Member> members;

  private Envelope(byte[] bytes, Map<String, Member> members) {
    this.bytes = bytes;
    this.members = members;
  }

  /**
   * Parses the bytes as one JSON object.
   *
   * @throws CheckpointFormatException if they are empty, not JSON, not an object, repeat a
   *     member name, or go on after the object
   */
  static Envelope scan(byte[] bytes) throws CheckpointFormatException {
    if (bytes.length == 0) {
      throw new CheckpointFormatException("empty file");
    }
    Map<String, Member> members = new LinkedHashMap<>();
    try (JsonParser parser = CheckpointCodec.MAPPER.createParser(bytes)) {
      JsonToken first = parser.nextToken();
      if (first == null) {
        throw new CheckpointFormatException("no JSON value, only white space");
      }
      if (first != JsonToken.START_OBJECT) {
        throw new CheckpointFormatException("not a JSON object but " + describe(first));
      }
      while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
        String name = parser.currentName();
        JsonToken valueToken = parser.nextToken();
        int start = offset(parser.currentTokenLocation());
        JsonNode value = parser.readValueAsTree();
        boolean container = valueToken == JsonToken.START_OBJECT
            || valueToken == JsonToken.START_ARRAY;
        int end = container ? offset(parser.currentTokenLocation()) + 1 : -1;
        members.put(name, new Member(value, start, end));
      }
      JsonToken after = parser.nextToken();
      if (after != null) {
        throw new CheckpointFormatException("content after the JSON object: "
            + describe(after) + " at " + where(parser.currentTokenLocation()));
      }
    } catch (JacksonException e) {
      throw new CheckpointFormatException("not valid JSON: "
          + printable(e.getOriginalMessage()) + " at " + where(e.getLocation()), e);
    }
    return new Envelope(bytes, members);
  }

  private static String describe(JsonToken token) {
    return switch (token) {
      case START_OBJECT -> "an object";
      case START_ARRAY -> "an array";
      case VALUE_STRING -> "a string";
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number";
      case VALUE_TRUE, VALUE_FALSE -> "a boolean";
      case VALUE_NULL -> "null";
      default -> token.name();
    };
  }

  private static int offset(TokenStreamLocation location) {
    long offset = location.getByteOffset();
    if (offset < 0 || offset > Integer.MAX_VALUE) {
      throw new IllegalStateException("parser reports no byte offset: " + location);
    }
    return (int) offset;
  }

  private static String where(TokenStreamLocation location) {
    return location == null
        ? "unknown position"
        : "line " + location.getLineNr() + ", column " + location.getColumnNr();
  }

  /** A top-level member, or empty if the object has none of that name. */
  Optional<Member> member(String name) {
    return Optional.ofNullable(members.get(name));
  }

  /**
   * The SHA-256 of a member's bytes as they stand in the file, as {@code sha256:<64 hex>}.
   *
   * @throws IllegalArgumentException if the member's value is not an object or array
   */
  String sha256(Member member) {
    if (member.end() < 0) {
      throw new IllegalArgumentException("only an object or array has a byte range");
    }
    return sha256(bytes, member.start(), member.end());
  }

  /** The SHA-256 of {@code bytes[start, end)} as {@code sha256:<64 lowercase hex>}. */
  static String sha256(byte[] bytes, int start, int end) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      digest.update(bytes, start, end - start);
      return "sha256:" + HexFormat.of().formatHex(digest.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }

  /** Text from a parser or a file for a message: escaped, at most 200 characters. */
  static String printable(String text) {
    return text == null ? "" : LogValues.line(text, 200);
  }
}
