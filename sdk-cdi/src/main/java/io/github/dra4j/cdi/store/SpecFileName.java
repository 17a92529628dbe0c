package io.github.dra4j.cdi.store;

import io.github.dra4j.cdi.name.InvalidNameException;
import io.github.dra4j.cdi.name.Kind;
import java.nio.charset.StandardCharsets;

/**
 * The file name of a spec inside a spec directory, checked so that it can only name a file
 * directly in that directory.
 *
 * <p>Names follow the reference library: {@code vendor-class.json} for a spec and {@code
 * vendor-class_<id>.json} for a transient (per-claim) spec. Unlike the library, which turns
 * {@code /} in an ID into {@code _}, an ID here must already consist of letters, digits, {@code
 * _}, {@code -}, {@code .} and {@code :} and start with a letter or digit: rewriting would let two
 * different IDs share one file, and IDs come from untrusted input (claim UIDs from the kubelet).
 *
 * <p>Construction refuses ({@link InvalidNameException}) names that are empty, longer than 255
 * bytes, lack a {@code .json}/{@code .yaml} extension, start with anything but a letter or digit
 * or hold other characters than letters, digits, {@code _ - . :}.
 *
 * @param value the file name, e.g. {@code k8s.gpu.example.com-gpu_4f1c.json}
 */
public record SpecFileName(String value) {
  /** Extension of the files this SDK writes. */
  public static final String JSON_EXTENSION = ".json";

  /** Extension of YAML spec files, which are read and may be removed. */
  public static final String YAML_EXTENSION = ".yaml";

  /** Longest file name Linux allows, in bytes. */
  public static final int MAX_FILE_NAME_BYTES = 255;

  /**
   * Checks the name.
   *
   * @param value the file name
   * @throws InvalidNameException naming field {@code spec file name} if the name is empty, too
   *     long, lacks a {@code .json}/{@code .yaml} extension, starts with {@code .} or holds a
   *     character other than letters, digits, {@code _ - . :}
   */
  public SpecFileName {
    String field = "spec file name";
    checkCharacters(field, value);
    if (!value.endsWith(JSON_EXTENSION) && !value.endsWith(YAML_EXTENSION)) {
      throw new InvalidNameException(field, value, "must end with .json or .yaml");
    }
    int bytes = value.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > MAX_FILE_NAME_BYTES) {
      throw new InvalidNameException(field, value,
          "is " + bytes + " bytes long, at most " + MAX_FILE_NAME_BYTES + " allowed");
    }
  }

  /**
   * Names the spec file of a kind: {@code vendor-class.json}.
   *
   * @param kind the kind
   * @return the name
   */
  public static SpecFileName forSpec(Kind kind) {
    return new SpecFileName(baseName(kind) + JSON_EXTENSION);
  }

  /**
   * Names a transient spec file: {@code vendor-class_<id>.json}.
   *
   * @param kind the kind
   * @param id the claim UID or another ID, checked with {@link #checkId}
   * @return the name
   * @throws InvalidNameException if the ID is not allowed in a file name
   */
  public static SpecFileName forTransientSpec(Kind kind, String id) {
    checkId(id);
    return new SpecFileName(transientPrefix(kind) + id + JSON_EXTENSION);
  }

  /**
   * Checks an ID that becomes part of a file name, before any path is built from it.
   *
   * @param id the ID, e.g. a claim UID
   * @return the same ID
   * @throws InvalidNameException naming field {@code transient spec ID} and the value if it is
   *     empty or holds anything but letters, digits, {@code _ - . :} after a letter or digit
   *     (path separators, {@code ..}, NUL and other control characters are all refused)
   */
  public static String checkId(String id) {
    checkCharacters("transient spec ID", id);
    return id;
  }

  /** The {@code vendor-class_} prefix every transient file name of a kind starts with. */
  static String transientPrefix(Kind kind) {
    return baseName(kind) + "_";
  }

  private static String baseName(Kind kind) {
    return kind.vendor() + "-" + kind.className();
  }

  private static void checkCharacters(String field, String value) {
    if (value == null || value.isEmpty()) {
      throw new InvalidNameException(field, String.valueOf(value), "must not be empty");
    }
    char first = value.charAt(0);
    if (!isAsciiLetterOrDigit(first)) {
      throw new InvalidNameException(field, value, "must start with a letter or digit");
    }
    for (int i = 1; i < value.length(); i++) {
      char c = value.charAt(i);
      if (!isAsciiLetterOrDigit(c) && c != '_' && c != '-' && c != '.' && c != ':') {
        String shown = Character.isISOControl(c) ? String.format("\\u%04x", (int) c) : "" + c;
        throw new InvalidNameException(field, value,
            "character '" + shown + "' is not allowed (letters, digits, _ - . : only)");
      }
    }
  }

  private static boolean isAsciiLetterOrDigit(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  }

  /**
   * Returns the file name.
   *
   * @return {@link #value()}
   */
  @Override
  public String toString() {
    return value;
  }
}
