package io.github.dra4j.cdi.validation;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The Kubernetes annotation rules CDI applies to spec and device annotations: qualified-name keys
 * (checked lower-cased) and at most 256 KiB of keys and values together.
 */
final class AnnotationRules {
  static final int MAX_TOTAL_BYTES = 256 * 1024;
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");
  private static final Pattern SUBDOMAIN = Pattern
      .compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

  private AnnotationRules() {}

  static void check(Map<String, String> annotations, String field, ProblemList problems) {
    long total = 0;
    for (Map.Entry<String, String> entry : annotations.entrySet()) {
      String key = entry.getKey();
      keyProblem(key.toLowerCase(Locale.ROOT))
          .ifPresent(reason -> problems.add(field, key, "invalid annotation key: " + reason));
      total += key.getBytes(StandardCharsets.UTF_8).length
          + entry.getValue().getBytes(StandardCharsets.UTF_8).length;
    }
    if (total > MAX_TOTAL_BYTES) {
      problems.add(field, total + " bytes",
          "annotations may hold at most " + MAX_TOTAL_BYTES + " bytes of keys and values");
    }
  }

  private static Optional<String> keyProblem(String key) {
    String[] parts = key.split("/", -1);
    String name;
    if (parts.length == 1) {
      name = parts[0];
    } else if (parts.length == 2) {
      String prefix = parts[0];
      if (prefix.isEmpty()) {
        return Optional.of("prefix part must not be empty");
      }
      if (prefix.length() > 253 || !SUBDOMAIN.matcher(prefix).matches()) {
        return Optional.of(
            "prefix part must be a DNS subdomain of at most 253 characters");
      }
      name = parts[1];
    } else {
      return Optional.of("a qualified name has at most one '/'");
    }
    if (name.isEmpty() || name.length() > 63 || !NAME.matcher(name).matches()) {
      return Optional.of("name part must be 1 to 63 characters of [-A-Za-z0-9_.],"
          + " starting and ending with a letter or digit");
    }
    return Optional.empty();
  }
}
