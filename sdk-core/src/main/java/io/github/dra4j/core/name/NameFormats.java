package io.github.dra4j.core.name;

import java.util.ArrayList;
import java.util.List;

/**
 * The string formats of Kubernetes names, checked exactly as kube-apiserver 1.36 checks them
 * ({@code k8s.io/apimachinery} {@code util/validation} and {@code api/validate/content}): each
 * check returns the server's messages for a value, in the server's order, or an empty list if the
 * value is fine. The messages are the texts that follow {@code Invalid value: "<value>": } in the
 * server's answer; callers add the field path and the value.
 *
 * <p>Two families of length messages exist in the server and both are kept: the older checks of
 * {@code util/validation} (DNS labels and subdomains as names, namespaces, device and request
 * names) say {@code must be no more than 63 characters}, the newer ones of {@code
 * validate/content} (label keys and values, qualified names, declarative long names) say {@code
 * must be no more than 63 bytes}. Lengths are counted in UTF-8 bytes, as Go's {@code len}
 * counts them.
 *
 * <p>A valid value is checked without a regular expression and without allocating (the kubelet
 * plugin checks names on every call); the returned empty list is shared. Stateless.
 */
public final class NameFormats {

  /** Maximum length of an RFC 1123 DNS label (device, request, counter names, namespaces). */
  public static final int DNS1123_LABEL_MAX_LENGTH = 63;
  /** Maximum length of an RFC 1123 DNS subdomain (object names, pool name parts). */
  public static final int DNS1123_SUBDOMAIN_MAX_LENGTH = 253;
  /** Maximum length of the name part of a qualified name and of a label value. */
  public static final int LABEL_MAX_LENGTH = 63;

  private static final String DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
  private static final String DNS1123_SUBDOMAIN_FMT = DNS1123_LABEL_FMT + "(\\." + DNS1123_LABEL_FMT
      + ")*";
  private static final String LABEL_KEY_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
  private static final String LABEL_VALUE_FMT = "(" + LABEL_KEY_FMT + ")?";
  private static final String C_IDENTIFIER_FMT = "[A-Za-z_][A-Za-z0-9_]*";
  private static final String CONDITION_REASON_FMT = "[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?";

  private static final String DNS1123_LABEL_MSG = regexError("a lowercase RFC 1123 label must"
      + " consist of lower case alphanumeric characters or '-', and must start and end with an"
      + " alphanumeric character", DNS1123_LABEL_FMT, "my-name", "123-abc");
  private static final String DNS1123_SUBDOMAIN_MSG = regexError("a lowercase RFC 1123 subdomain"
      + " must consist of lower case alphanumeric characters, '-' or '.', and must start and end"
      + " with an alphanumeric character", DNS1123_SUBDOMAIN_FMT, "example.com");
  private static final String LABEL_KEY_ERR = "must consist of alphanumeric characters, '-', '_'"
      + " or '.', and must start and end with an alphanumeric character";
  private static final String LABEL_KEY_MSG = regexError(LABEL_KEY_ERR, LABEL_KEY_FMT, "MyName",
      "my.name", "123-abc");
  private static final String LABEL_VALUE_MSG = regexError("a valid label must be an empty string"
      + " or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an"
      + " alphanumeric character", LABEL_VALUE_FMT, "MyValue", "my_value", "12345");
  private static final String C_IDENTIFIER_MSG = regexError("a valid C identifier must start with"
      + " alphabetic character or '_', followed by a string of alphanumeric characters or '_'",
      C_IDENTIFIER_FMT, "my_name", "MY_NAME", "MyName");
  private static final String CONDITION_REASON_MSG = regexError("a condition reason must start"
      + " with alphabetic character, optionally followed by a string of alphanumeric characters or"
      + " '_,:', and must end with an alphanumeric character or '_'", CONDITION_REASON_FMT,
      "my_name", "MY_NAME", "MyName", "ReasonA,ReasonB", "ReasonA:ReasonB");
  private static final String EMPTY = "must be non-empty";

  private NameFormats() {}

  /**
   * IsDNS1123Label of {@code util/validation}: at most 63 bytes (said in characters), lower-case
   * letters, digits and {@code -}, starting and ending with a letter or digit.
   *
   * @param value the value, not null
   * @return the messages, empty if valid
   */
  public static List<String> dns1123Label(String value) {
    return dns1123Label(value, false);
  }

  /**
   * IsDNS1123Label of {@code validate/content}: as {@link #dns1123Label(String)}, the length
   * message in bytes. Used by declarative short names.
   *
   * @param value the value, not null
   * @return the messages, empty if valid
   */
  public static List<String> shortName(String value) {
    return dns1123Label(value, true);
  }

  /**
   * IsDNS1123Subdomain of {@code util/validation}: at most 253 bytes (said in characters), DNS
   * labels joined by dots. Object names ({@code NameIsDNSSubdomain}), device class names.
   *
   * @param value the value, not null
   * @return the messages, empty if valid
   */
  public static List<String> dns1123Subdomain(String value) {
    return dns1123Subdomain(value, false);
  }

  /**
   * IsDNS1123Subdomain of {@code validate/content}: as {@link #dns1123Subdomain(String)}, the
   * length message in bytes. Declarative long names ({@code validate.LongName}) and the prefix of
   * qualified names use it.
   *
   * @param value the value, not null
   * @return the messages, empty if valid
   */
  public static List<String> longName(String value) {
    return dns1123Subdomain(value, true);
  }

  /**
   * IsQualifiedName, which is IsLabelKey in 1.36: an optional DNS subdomain prefix and {@code /},
   * then a name of at most 63 bytes of letters, digits, {@code -}, {@code _} and {@code .},
   * starting and ending with a letter or digit. Label keys, annotation keys (lower-cased by the
   * caller), finalizers, condition types, taint keys, binding conditions.
   *
   * @param value the value, not null
   * @return the messages, empty if valid
   */
  public static List<String> qualifiedName(String value) {
    if (isQualifiedName(value)) {
      return List.of();
    }
    List<String> errors = new ArrayList<>();
    int slash = value.indexOf('/');
    String name = value;
    if (slash >= 0) {
      if (value.indexOf('/', slash + 1) >= 0) {
        errors.add("a valid label key " + LABEL_KEY_MSG
            + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
        return errors;
      }
      String prefix = value.substring(0, slash);
      name = value.substring(slash + 1);
      if (prefix.isEmpty()) {
        errors.add("prefix part " + EMPTY);
      } else {
        for (String message : longName(prefix)) {
          errors.add("prefix part " + message);
        }
      }
    }
    if (name.isEmpty()) {
      errors.add("name part " + EMPTY);
    } else if (utf8Length(name) > LABEL_MAX_LENGTH) {
      errors.add("name part " + maxLenBytes(LABEL_MAX_LENGTH));
    }
    if (!NameChars.isLabelKeyName(name, 0, name.length())) {
      errors.add("name part " + LABEL_KEY_MSG);
    }
    return errors;
  }

  /**
   * IsValidLabelValue (IsLabelValue in 1.36): empty, or at most 63 bytes of letters, digits,
   * {@code -}, {@code _} and {@code .}, starting and ending with a letter or digit.
   *
   * @param value the value, not null
   * @return the messages, empty if valid
   */
  public static List<String> labelValue(String value) {
    if (isLabelValue(value)) {
      return List.of();
    }
    List<String> errors = new ArrayList<>(2);
    if (utf8Length(value) > LABEL_MAX_LENGTH) {
      errors.add(maxLenBytes(LABEL_MAX_LENGTH));
    }
    if (!value.isEmpty() && !NameChars.isLabelKeyName(value, 0, value.length())) {
      errors.add(LABEL_VALUE_MSG);
    }
    return errors;
  }

  /**
   * IsCIdentifier: a letter or {@code _}, then letters, digits or {@code _}. The length is not
   * checked.
   *
   * @param value the value, not null
   * @return the messages, empty if valid
   */
  public static List<String> cIdentifier(String value) {
    return isCIdentifier(value) ? List.of() : List.of(C_IDENTIFIER_MSG);
  }

  /**
   * The format of a condition's reason (metav1 ValidateCondition): a letter, then letters,
   * digits, {@code _}, {@code ,} or {@code :}, ending with a letter, digit or {@code _}. The
   * length is not checked.
   *
   * @param value the value, not null
   * @return the messages, empty if valid
   */
  public static List<String> conditionReason(String value) {
    return isConditionReason(value) ? List.of() : List.of(CONDITION_REASON_MSG);
  }

  /**
   * IsValidInterfaceAddress: an IP address with a prefix length ({@code 192.168.1.5/24}), parsed
   * as Go's {@code net.ParseCIDR} parses it (with leading zeros of IPv4 numbers tolerated), and
   * written exactly in the canonical form Go prints it in.
   *
   * @param value the value, not null
   * @return the messages, empty if valid
   */
  public static List<String> interfaceAddress(String value) {
    return IpAddresses.interfaceAddress(value);
  }

  /**
   * Whether {@link #dns1123Label(String)} accepts a value.
   *
   * @param value the value, may be null
   * @return true if valid
   */
  public static boolean isDns1123Label(String value) {
    return value != null && value.length() <= DNS1123_LABEL_MAX_LENGTH
        && NameChars.isLabel(value, 0, value.length());
  }

  /**
   * Whether {@link #dns1123Subdomain(String)} accepts a value.
   *
   * @param value the value, may be null
   * @return true if valid
   */
  public static boolean isDns1123Subdomain(String value) {
    return value != null && value.length() <= DNS1123_SUBDOMAIN_MAX_LENGTH
        && NameChars.isSubdomain(value, 0, value.length());
  }

  /**
   * Whether {@link #qualifiedName(String)} accepts a value.
   *
   * @param value the value, may be null
   * @return true if valid
   */
  public static boolean isQualifiedName(String value) {
    if (value == null) {
      return false;
    }
    int slash = value.indexOf('/');
    int nameStart = 0;
    if (slash >= 0) {
      if (slash > DNS1123_SUBDOMAIN_MAX_LENGTH || !NameChars.isSubdomain(value, 0, slash)) {
        return false;
      }
      nameStart = slash + 1;
    }
    return value.length() - nameStart <= LABEL_MAX_LENGTH
        && NameChars.isLabelKeyName(value, nameStart, value.length());
  }

  /**
   * Whether {@link #labelValue(String)} accepts a value.
   *
   * @param value the value, may be null
   * @return true if valid
   */
  public static boolean isLabelValue(String value) {
    return value != null && (value.isEmpty() || (value.length() <= LABEL_MAX_LENGTH
        && NameChars.isLabelKeyName(value, 0, value.length())));
  }

  /**
   * Whether {@link #cIdentifier(String)} accepts a value.
   *
   * @param value the value, may be null
   * @return true if valid
   */
  public static boolean isCIdentifier(String value) {
    if (value == null || value.isEmpty()) {
      return false;
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (!(NameChars.isAsciiLetter(c) || c == '_' || (i > 0 && NameChars.isDigit(c)))) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether {@link #conditionReason(String)} accepts a value.
   *
   * @param value the value, may be null
   * @return true if valid
   */
  public static boolean isConditionReason(String value) {
    if (value == null || value.isEmpty() || !NameChars.isAsciiLetter(value.charAt(0))) {
      return false;
    }
    int last = value.length() - 1;
    for (int i = 1; i <= last; i++) {
      char c = value.charAt(i);
      boolean word = NameChars.isAsciiLetter(c) || NameChars.isDigit(c) || c == '_';
      if (!word && (i == last || (c != ',' && c != ':'))) {
        return false;
      }
    }
    return true;
  }

  /**
   * The number of bytes of a string in UTF-8, which is what Go's {@code len} counts. A lone
   * surrogate counts as the three bytes of U+FFFD, as Go decodes it from JSON.
   *
   * @param value the string
   * @return its UTF-8 length
   */
  public static int utf8Length(String value) {
    int length = value.length();
    int bytes = length;
    for (int i = 0; i < length; i++) {
      char c = value.charAt(i);
      if (c >= 0x80) {
        if (c < 0x800) {
          bytes += 1;
        } else if (Character.isHighSurrogate(c) && i + 1 < length
            && Character.isLowSurrogate(value.charAt(i + 1))) {
          bytes += 2;
          i++;
        } else {
          bytes += 2;
        }
      }
    }
    return bytes;
  }

  /**
   * Go's {@code RegexError}: the message, examples and the regular expression, worded as the
   * server words them (note the double space before each {@code or}).
   *
   * @param message the explanation
   * @param regex the regular expression
   * @param examples valid examples
   * @return the full message
   */
  public static String regexError(String message, String regex, String... examples) {
    StringBuilder out = new StringBuilder(message);
    if (examples.length == 0) {
      return out.append(" (regex used for validation is '").append(regex).append("')")
          .toString();
    }
    out.append(" (e.g. ");
    for (int i = 0; i < examples.length; i++) {
      if (i > 0) {
        out.append(" or ");
      }
      out.append('\'').append(examples[i]).append("', ");
    }
    return out.append("regex used for validation is '").append(regex).append("')").toString();
  }

  private static List<String> dns1123Label(String value, boolean inBytes) {
    if (isDns1123Label(value)) {
      return List.of();
    }
    List<String> errors = new ArrayList<>(2);
    if (utf8Length(value) > DNS1123_LABEL_MAX_LENGTH) {
      errors.add(inBytes ? maxLenBytes(DNS1123_LABEL_MAX_LENGTH)
          : maxLenCharacters(DNS1123_LABEL_MAX_LENGTH));
    }
    if (!NameChars.isLabel(value, 0, value.length())) {
      errors.add(NameChars.isSubdomain(value, 0, value.length()) ? "must not contain dots"
          : DNS1123_LABEL_MSG);
    }
    return errors;
  }

  private static List<String> dns1123Subdomain(String value, boolean inBytes) {
    if (isDns1123Subdomain(value)) {
      return List.of();
    }
    List<String> errors = new ArrayList<>(2);
    if (utf8Length(value) > DNS1123_SUBDOMAIN_MAX_LENGTH) {
      errors.add(inBytes ? maxLenBytes(DNS1123_SUBDOMAIN_MAX_LENGTH)
          : maxLenCharacters(DNS1123_SUBDOMAIN_MAX_LENGTH));
    }
    if (!NameChars.isSubdomain(value, 0, value.length())) {
      errors.add(DNS1123_SUBDOMAIN_MSG);
    }
    return errors;
  }

  private static String maxLenCharacters(int length) {
    return "must be no more than " + length + " characters";
  }

  private static String maxLenBytes(int length) {
    return "must be no more than " + length + " bytes";
  }
}
