package io.github.dra4j.core.name;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The Kubernetes name rules DRA objects use, each giving the API server's answer for a value:
 * DNS labels and subdomains (RFC 1123), DRA driver names, pool names, qualified attribute and
 * capacity names, label keys and values; and dra4j's own rule for object UIDs where they become
 * parts of file names. The formats and their texts come from {@link NameFormats}.
 *
 * <p>Each check returns what the server would say about the value without the field path, or
 * empty if the value is fine: {@code Required value}, {@code Too long: may not be more than 63
 * bytes}, {@code Invalid value: "GPU-0": a lowercase RFC 1123 label must consist of ...}; several
 * errors of one value are separated by {@code ", "}, in the server's order. Callers put the field
 * path in front ({@code spec.driver: Invalid value: ...}). Lengths are counted in UTF-8 bytes, as
 * the server counts them. Valid values are recognized without allocating (the kubelet plugin
 * checks names on every call), except qualified names with a domain and upper-case driver names.
 * Stateless.
 */
public final class NameRules {

  /** Maximum length of a DNS label. */
  public static final int DNS_LABEL_MAX = NameFormats.DNS1123_LABEL_MAX_LENGTH;

  /** Maximum length of a DNS subdomain. */
  public static final int DNS_SUBDOMAIN_MAX = NameFormats.DNS1123_SUBDOMAIN_MAX_LENGTH;

  /** Maximum length of the identifier part of an attribute or capacity name. */
  public static final int IDENTIFIER_MAX = 32;

  /** Maximum length of the domain part of an attribute or capacity name (a driver name). */
  public static final int DOMAIN_MAX = 63;

  /** Maximum length of a DRA driver name. */
  public static final int DRIVER_NAME_MAX = 63;

  /** Maximum length of an object UID as {@link #uid} accepts it. */
  public static final int UID_MAX = 64;

  private static final String UID_FORMAT = "a UID must consist of letters, digits or '-', and must"
      + " start and end with a letter or digit";

  private NameRules() {}

  /**
   * Checks an RFC 1123 DNS label as the server's ValidateDNS1123Label does (device, request and
   * counter names, namespaces): each problem is {@code Invalid value}, an empty value too.
   *
   * @param value the value, null taken as empty
   * @return the problem, or empty
   */
  public static Optional<String> dnsLabel(String value) {
    return joined(dnsLabelProblems(value));
  }

  /**
   * The problems of an RFC 1123 DNS label, as {@link #dnsLabel} words them.
   *
   * @param value the value, null taken as empty
   * @return the problems in the server's order; empty if the value is fine
   */
  public static List<NameProblem> dnsLabelProblems(String value) {
    if (isDnsLabel(value)) {
      return List.of();
    }
    String text = orEmpty(value);
    return invalidEach(new ArrayList<>(2), text, NameFormats.dns1123Label(text));
  }

  /**
   * Checks an RFC 1123 DNS subdomain as the server's ValidateDNS1123Subdomain does (object
   * names): each problem is {@code Invalid value}, an empty value too. A {@code maxLength} below
   * {@value #DNS_SUBDOMAIN_MAX} adds {@code Too long} over it, as the server's checks of names
   * with a lower limit do; the subdomain format itself never allows more than {@value
   * #DNS_SUBDOMAIN_MAX}.
   *
   * @param value the value, null taken as empty
   * @param maxLength the length limit in bytes
   * @return the problem, or empty
   */
  public static Optional<String> dnsSubdomain(String value, int maxLength) {
    return joined(dnsSubdomainProblems(value, maxLength));
  }

  /**
   * The problems of an RFC 1123 DNS subdomain, as {@link #dnsSubdomain} words them.
   *
   * @param value the value, null taken as empty
   * @param maxLength the length limit in bytes
   * @return the problems in the server's order; empty if the value is fine
   */
  public static List<NameProblem> dnsSubdomainProblems(String value, int maxLength) {
    if (isDnsSubdomain(value, maxLength)) {
      return List.of();
    }
    String text = orEmpty(value);
    List<NameProblem> problems = new ArrayList<>(2);
    if (maxLength < DNS_SUBDOMAIN_MAX && NameFormats.utf8Length(text) > maxLength) {
      problems.add(NameProblem.tooLong(maxLength));
    }
    return invalidEach(problems, text, NameFormats.dns1123Subdomain(text));
  }

  /**
   * Checks a DRA driver name as the server does (the rule of CSI driver names): {@code Required
   * value} when empty, {@code Too long} over {@value #DRIVER_NAME_MAX} bytes, and the DNS
   * subdomain format applied to the name in lower case, so upper-case letters are accepted (the
   * server warns about them in ResourceSlices). Where the name must be lower case, check {@link
   * #isDnsSubdomain isDnsSubdomain(name, DRIVER_NAME_MAX)} as well and say what needs it.
   *
   * @param value the driver name, e.g. {@code gpu.example.com}
   * @return the problem, or empty
   */
  public static Optional<String> driverName(String value) {
    return joined(driverNameProblems(value));
  }

  /**
   * The problems of a DRA driver name, as {@link #driverName} words them.
   *
   * @param value the driver name, null taken as empty
   * @return the problems in the server's order; empty if the value is fine
   */
  public static List<NameProblem> driverNameProblems(String value) {
    String text = orEmpty(value);
    if (text.isEmpty()) {
      return List.of(NameProblem.required());
    }
    if (isDnsSubdomain(text, DRIVER_NAME_MAX)) {
      return List.of();
    }
    List<NameProblem> problems = new ArrayList<>(2);
    if (NameFormats.utf8Length(text) > DRIVER_NAME_MAX) {
      problems.add(NameProblem.tooLong(DRIVER_NAME_MAX));
    }
    for (String message : NameFormats.dns1123Subdomain(text.toLowerCase(Locale.ROOT))) {
      problems.add(NameProblem.invalid(text, message));
    }
    return problems;
  }

  /**
   * Checks a pool name as the server does: {@code Required value} when empty, {@code Too long}
   * over {@value #DNS_SUBDOMAIN_MAX} bytes, and each {@code /}-separated part a DNS subdomain,
   * a bad part reported with the part as the value.
   *
   * @param value the pool name
   * @return the problem, or empty
   */
  public static Optional<String> poolName(String value) {
    return joined(poolNameProblems(value));
  }

  /**
   * The problems of a pool name, as {@link #poolName} words them.
   *
   * @param value the pool name, null taken as empty
   * @return the problems in the server's order; empty if the value is fine
   */
  public static List<NameProblem> poolNameProblems(String value) {
    String text = orEmpty(value);
    if (text.isEmpty()) {
      return List.of(NameProblem.required());
    }
    if (text.length() <= DNS_SUBDOMAIN_MAX && isPoolName(text)) {
      return List.of();
    }
    List<NameProblem> problems = new ArrayList<>();
    if (NameFormats.utf8Length(text) > DNS_SUBDOMAIN_MAX) {
      problems.add(NameProblem.tooLong(DNS_SUBDOMAIN_MAX));
    }
    for (String part : text.split("/", -1)) {
      addInvalid(problems, part, NameFormats.dns1123Subdomain(part));
    }
    return problems;
  }

  /**
   * Checks an attribute or capacity name as the server does: a C identifier of at most {@value
   * #IDENTIFIER_MAX} bytes, optionally after a domain and {@code /}; the domain follows {@link
   * #driverName}. An empty domain or identifier around the slash is {@code Invalid value: ""}
   * with the part it misses. Kubernetes 1.36 does not check a name with more than one slash.
   *
   * @param value the name, e.g. {@code model} or {@code gpu.example.com/memory}
   * @return the problem, or empty
   */
  public static Optional<String> qualifiedName(String value) {
    return joined(qualifiedNameProblems(value));
  }

  /**
   * The problems of an attribute or capacity name, as {@link #qualifiedName} words them.
   *
   * @param value the name, null taken as empty
   * @return the problems in the server's order; empty if the value is fine
   */
  public static List<NameProblem> qualifiedNameProblems(String value) {
    String text = orEmpty(value);
    int slash = text.indexOf('/');
    if (slash < 0) {
      if (text.length() <= IDENTIFIER_MAX && NameFormats.isCIdentifier(text)) {
        return List.of();
      }
      return cIdentifierProblems(new ArrayList<>(2), text);
    }
    if (text.indexOf('/', slash + 1) >= 0) {
      // Kubernetes 1.37 refuses these: `must not contain more than one slash`.
      return List.of();
    }
    String domain = text.substring(0, slash);
    String id = text.substring(slash + 1);
    List<NameProblem> problems = new ArrayList<>(2);
    if (domain.isEmpty()) {
      problems.add(NameProblem.invalid("", "the domain must not be empty"));
    } else {
      problems.addAll(driverNameProblems(domain));
    }
    if (id.isEmpty()) {
      problems.add(NameProblem.invalid("", "the name must not be empty"));
    } else {
      cIdentifierProblems(problems, id);
    }
    return problems;
  }

  /**
   * The problems of a C identifier of at most {@value #IDENTIFIER_MAX} bytes (the server's
   * validateCIdentifier): {@code Too long}, then the C identifier format.
   *
   * @param value the identifier, null taken as empty
   * @return the problems in the server's order; empty if the value is fine
   */
  public static List<NameProblem> cIdentifierProblems(String value) {
    return cIdentifierProblems(new ArrayList<>(2), orEmpty(value));
  }

  /**
   * Checks a label key (taint keys, condition types) as the server's ValidateLabelName does: an
   * optional DNS subdomain prefix and {@code /}, then a name of at most 63 bytes of letters,
   * digits, {@code -}, {@code _} and {@code .}; each problem is {@code Invalid value}, an empty
   * key too.
   *
   * @param value the key, null taken as empty
   * @return the problem, or empty
   */
  public static Optional<String> labelKey(String value) {
    return joined(labelKeyProblems(value));
  }

  /**
   * The problems of a label key, as {@link #labelKey} words them.
   *
   * @param value the key, null taken as empty
   * @return the problems in the server's order; empty if the value is fine
   */
  public static List<NameProblem> labelKeyProblems(String value) {
    if (NameFormats.isQualifiedName(value)) {
      return List.of();
    }
    String text = orEmpty(value);
    return invalidEach(new ArrayList<>(2), text, NameFormats.qualifiedName(text));
  }

  /**
   * Checks a label value (taint values) as the server does: empty, or at most 63 bytes of
   * letters, digits, {@code -}, {@code _} and {@code .} that start and end with a letter or
   * digit; each problem is {@code Invalid value}.
   *
   * @param value the value, null taken as empty
   * @return the problem, or empty
   */
  public static Optional<String> labelValue(String value) {
    return joined(labelValueProblems(value));
  }

  /**
   * The problems of a label value, as {@link #labelValue} words them.
   *
   * @param value the value, null taken as empty
   * @return the problems in the server's order; empty if the value is fine
   */
  public static List<NameProblem> labelValueProblems(String value) {
    String text = orEmpty(value);
    if (NameFormats.isLabelValue(text)) {
      return List.of();
    }
    return invalidEach(new ArrayList<>(2), text, NameFormats.labelValue(text));
  }

  /**
   * Checks an object UID where it can become part of a file name (CDI spec files, checkpoints):
   * 1 to {@value #UID_MAX} ASCII letters, digits or {@code -}, starting and ending with a letter
   * or digit. Kubernetes UIDs are UUIDs, which pass; {@code ..}, {@code /} and spaces do not.
   * This is dra4j's own rule (file-name safety), worded in the server's manner; the value is
   * shown as it is.
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
      return Optional.of("Too long: \"" + value + "\": may not be more than " + UID_MAX
          + " characters");
    }
    return Optional.of("Invalid value: \"" + value + "\": " + UID_FORMAT);
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
    return NameFormats.isDns1123Label(value);
  }

  /**
   * Whether {@link #dnsSubdomain} accepts a value, without a regular expression or an
   * allocation: at most {@code maxLength} (and {@value #DNS_SUBDOMAIN_MAX}) characters, DNS
   * labels (of any length) joined by dots. Only lower case passes, so this is also the stricter
   * check of a driver name that must be lower case.
   *
   * @param value the value, may be null
   * @param maxLength the length limit
   * @return true if it is a DNS subdomain
   */
  public static boolean isDnsSubdomain(String value, int maxLength) {
    return value != null && value.length() <= Math.min(maxLength, DNS_SUBDOMAIN_MAX)
        && NameChars.isSubdomain(value, 0, value.length());
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
      boolean alphanumeric = NameChars.isAsciiLetter(c) || NameChars.isDigit(c);
      if (!alphanumeric && (c != '-' || i == 0 || i == end - 1)) {
        return false;
      }
    }
    return true;
  }

  /** Whether every {@code /}-separated part is a DNS subdomain, without allocating. */
  private static boolean isPoolName(String value) {
    int start = 0;
    for (int slash = value.indexOf('/'); slash >= 0; slash = value.indexOf('/', start)) {
      if (!NameChars.isSubdomain(value, start, slash)) {
        return false;
      }
      start = slash + 1;
    }
    return NameChars.isSubdomain(value, start, value.length());
  }

  /** The server's validateCIdentifier: Too long over 32 bytes, then the C identifier format. */
  private static List<NameProblem> cIdentifierProblems(List<NameProblem> problems, String id) {
    if (NameFormats.utf8Length(id) > IDENTIFIER_MAX) {
      problems.add(NameProblem.tooLong(IDENTIFIER_MAX));
    }
    addInvalid(problems, id, NameFormats.cIdentifier(id));
    return problems;
  }

  /** Each message as the server's {@code Invalid value} of the value, after the problems given. */
  private static List<NameProblem> invalidEach(List<NameProblem> problems, String value,
      List<String> messages) {
    addInvalid(problems, value, messages);
    return problems;
  }

  private static void addInvalid(List<NameProblem> problems, String value,
      List<String> messages) {
    for (String message : messages) {
      problems.add(NameProblem.invalid(value, message));
    }
  }

  private static Optional<String> joined(List<NameProblem> problems) {
    return problems.isEmpty() ? Optional.empty() : Optional.of(NameProblem.join(problems));
  }

  private static String orEmpty(String value) {
    return value == null ? "" : value;
  }
}
