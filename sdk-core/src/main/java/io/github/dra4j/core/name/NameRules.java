package io.github.dra4j.core.name;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The Kubernetes name formats DRA objects use: DNS labels and subdomains (RFC 1123), DRA driver
 * names, pool names, qualified attribute and capacity names, label keys and values, and object
 * UIDs where they become parts of file names. Each check returns the problem in the API server's
 * words ({@code Required value}, {@code Too long: ...}, {@code Invalid value: "<value>": ...}),
 * or empty if the value is fine; callers add the field path. The one home of these rules in
 * dra4j: the ResourceSlice validator, the kubelet plugin's checks of what the kubelet sends and
 * of its checkpoint file, and request references all use it. Stateless.
 */
public final class NameRules {

  private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
  private static final Pattern DNS_SUBDOMAIN =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
  private static final Pattern C_IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  private static final Pattern LABEL_NAME =
      Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");
  private static final Pattern UID = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9]*[A-Za-z0-9])?");

  /** Maximum length of a DNS label. */
  public static final int DNS_LABEL_MAX = 63;

  /** Maximum length of a DNS subdomain. */
  public static final int DNS_SUBDOMAIN_MAX = 253;

  /** Maximum length of the identifier part of an attribute or capacity name. */
  public static final int IDENTIFIER_MAX = 32;

  /** Maximum length of the domain part of an attribute or capacity name. */
  public static final int DOMAIN_MAX = 63;

  /** Maximum length of a DRA driver name. */
  public static final int DRIVER_NAME_MAX = 63;

  /** Maximum length of an object UID as {@link #uid} accepts it. */
  public static final int UID_MAX = 64;

  private NameRules() {}

  /**
   * Checks an RFC 1123 DNS label (device names, counter set and counter names).
   *
   * @param value the value
   * @return the problem, or empty
   */
  public static Optional<String> dnsLabel(String value) {
    if (isDnsLabel(value)) {
      return Optional.empty();
    }
    if (value == null || value.isEmpty()) {
      return Optional.of("Required value");
    }
    if (value.length() > DNS_LABEL_MAX) {
      return Optional.of(tooLong(value, DNS_LABEL_MAX));
    }
    if (!DNS_LABEL.matcher(value).matches()) {
      return Optional.of(invalid(value, "a lowercase RFC 1123 label must consist of lower case"
          + " alphanumeric characters or '-', and must start and end with an alphanumeric"
          + " character"));
    }
    return Optional.empty();
  }

  /**
   * Checks an RFC 1123 DNS subdomain with a length limit (driver name: 63, domains).
   *
   * @param value the value
   * @param maxLength the length limit
   * @return the problem, or empty
   */
  public static Optional<String> dnsSubdomain(String value, int maxLength) {
    if (isDnsSubdomain(value, maxLength)) {
      return Optional.empty();
    }
    if (value == null || value.isEmpty()) {
      return Optional.of("Required value");
    }
    if (value.length() > maxLength) {
      return Optional.of(tooLong(value, maxLength));
    }
    if (!DNS_SUBDOMAIN.matcher(value).matches()) {
      return Optional.of(invalid(value, "a lowercase RFC 1123 subdomain must consist of lower case"
          + " alphanumeric characters, '-' or '.', and must start and end with an alphanumeric"
          + " character"));
    }
    return Optional.empty();
  }

  /**
   * Checks a DRA driver name: a DNS subdomain of at most {@value #DRIVER_NAME_MAX} characters,
   * like {@code gpu.example.com}. It appears in ResourceSlices, socket and CDI file names.
   *
   * @param value the driver name
   * @return the problem, or empty
   */
  public static Optional<String> driverName(String value) {
    return dnsSubdomain(value, DRIVER_NAME_MAX);
  }

  /**
   * Checks a pool name: at most 253 characters, DNS subdomains separated by {@code /}.
   *
   * @param value the pool name
   * @return the problem, or empty
   */
  public static Optional<String> poolName(String value) {
    if (value == null || value.isEmpty()) {
      return Optional.of("Required value");
    }
    if (value.length() > DNS_SUBDOMAIN_MAX) {
      return Optional.of(tooLong(value, DNS_SUBDOMAIN_MAX));
    }
    for (String part : value.split("/", -1)) {
      if (part.isEmpty() || !DNS_SUBDOMAIN.matcher(part).matches()) {
        return Optional.of(invalid(value, "each '/'-separated part must be a lowercase RFC 1123"
            + " subdomain"));
      }
    }
    return Optional.empty();
  }

  /**
   * Checks an attribute or capacity name: a C identifier of at most 32 characters, optionally
   * qualified with a DNS subdomain domain of at most 63 characters ({@code domain/id}).
   *
   * @param value the name
   * @return the problem, or empty
   */
  public static Optional<String> qualifiedName(String value) {
    if (value == null || value.isEmpty()) {
      return Optional.of("Required value");
    }
    int slash = value.indexOf('/');
    String id = slash < 0 ? value : value.substring(slash + 1);
    if (slash >= 0) {
      String domain = value.substring(0, slash);
      Optional<String> domainProblem = dnsSubdomain(domain, DOMAIN_MAX);
      if (domainProblem.isPresent()) {
        return Optional.of(invalid(value, "domain \"" + domain + "\": " + domainProblem.get()));
      }
    }
    if (id.isEmpty() || id.length() > IDENTIFIER_MAX || !C_IDENTIFIER.matcher(id).matches()) {
      return Optional.of(invalid(value, "the identifier must be a C identifier (letters, digits,"
          + " '_', not starting with a digit) of at most " + IDENTIFIER_MAX + " characters"));
    }
    return Optional.empty();
  }

  /**
   * Checks a label-style key (taint keys): optional DNS subdomain prefix and {@code /}, then a
   * name of at most 63 alphanumeric characters, {@code -}, {@code _} or {@code .}.
   *
   * @param value the key
   * @return the problem, or empty
   */
  public static Optional<String> labelKey(String value) {
    if (value == null || value.isEmpty()) {
      return Optional.of("Required value");
    }
    int slash = value.lastIndexOf('/');
    String name = slash < 0 ? value : value.substring(slash + 1);
    if (slash >= 0 && dnsSubdomain(value.substring(0, slash), DNS_SUBDOMAIN_MAX).isPresent()) {
      return Optional.of(invalid(value, "the prefix must be a lowercase RFC 1123 subdomain"));
    }
    if (name.length() > DNS_LABEL_MAX || !LABEL_NAME.matcher(name).matches()) {
      return Optional.of(invalid(value, "name part must consist of alphanumeric characters, '-',"
          + " '_' or '.', start and end with an alphanumeric character, at most 63 characters"));
    }
    return Optional.empty();
  }

  /**
   * Checks a label-style value (taint values): empty, or at most 63 characters of the label name
   * format.
   *
   * @param value the value, null allowed
   * @return the problem, or empty
   */
  public static Optional<String> labelValue(String value) {
    if (value == null || value.isEmpty()) {
      return Optional.empty();
    }
    if (value.length() > DNS_LABEL_MAX || !LABEL_NAME.matcher(value).matches()) {
      return Optional.of(invalid(value, "must be empty or consist of alphanumeric characters, '-',"
          + " '_' or '.', start and end with an alphanumeric character, at most 63 characters"));
    }
    return Optional.empty();
  }

  /**
   * Checks an object UID where it can become part of a file name (CDI spec files, checkpoints):
   * 1 to {@value #UID_MAX} ASCII letters, digits or {@code -}, starting and ending with a letter
   * or digit. Kubernetes UIDs are UUIDs, which pass; {@code ..}, {@code /} and spaces do not.
   *
   * @param value the UID
   * @return the problem, or empty
   */
  public static Optional<String> uid(String value) {
    if (isUid(value)) {
      return Optional.empty();
    }
    if (value == null || value.isEmpty()) {
      return Optional.of("Required value");
    }
    if (value.length() > UID_MAX) {
      return Optional.of(tooLong(value, UID_MAX));
    }
    if (!UID.matcher(value).matches()) {
      return Optional.of(invalid(value, "a UID must consist of letters, digits or '-', and must"
          + " start and end with a letter or digit"));
    }
    return Optional.empty();
  }

  /**
   * Whether {@link #dnsLabel} accepts a value, without a regular expression or an allocation: the
   * kubelet plugin checks names on every call. 1 to {@value #DNS_LABEL_MAX} lower-case letters,
   * digits or {@code -}, starting and ending with a letter or digit.
   *
   * @param value the value, may be null
   * @return true if it is a DNS label
   */
  public static boolean isDnsLabel(String value) {
    return value != null && value.length() <= DNS_LABEL_MAX && isLabel(value, 0, value.length());
  }

  /**
   * Whether {@link #dnsSubdomain} accepts a value, without a regular expression or an
   * allocation: at most {@code maxLength} characters, DNS labels (of any length) joined by dots.
   *
   * @param value the value, may be null
   * @param maxLength the length limit
   * @return true if it is a DNS subdomain
   */
  public static boolean isDnsSubdomain(String value, int maxLength) {
    if (value == null || value.isEmpty() || value.length() > maxLength) {
      return false;
    }
    int start = 0;
    for (int dot = value.indexOf('.'); dot >= 0; dot = value.indexOf('.', start)) {
      if (!isLabel(value, start, dot)) {
        return false;
      }
      start = dot + 1;
    }
    return isLabel(value, start, value.length());
  }

  /**
   * Whether {@link #uid} accepts a value, without a regular expression or an allocation: 1 to
   * {@value #UID_MAX} ASCII letters, digits or {@code -}, starting and ending with a letter or
   * digit.
   *
   * @param value the value, may be null
   * @return true if it is a UID that may be part of a file name
   */
  public static boolean isUid(String value) {
    if (value == null || value.isEmpty() || value.length() > UID_MAX) {
      return false;
    }
    int end = value.length();
    for (int i = 0; i < end; i++) {
      char c = value.charAt(i);
      boolean alphanumeric = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9';
      if (!alphanumeric && (c != '-' || i == 0 || i == end - 1)) {
        return false;
      }
    }
    return true;
  }

  /** Whether {@code value[start, end)} is a lower-case RFC 1123 label of any non-zero length. */
  private static boolean isLabel(String value, int start, int end) {
    if (start >= end) {
      return false;
    }
    for (int i = start; i < end; i++) {
      char c = value.charAt(i);
      boolean alphanumeric = c >= 'a' && c <= 'z' || c >= '0' && c <= '9';
      if (!alphanumeric && (c != '-' || i == start || i == end - 1)) {
        return false;
      }
    }
    return true;
  }

  private static String tooLong(String value, int max) {
    return "Too long: \"" + value + "\": may not be more than " + max + " characters";
  }

  private static String invalid(String value, String why) {
    return "Invalid value: \"" + value + "\": " + why;
  }
}
