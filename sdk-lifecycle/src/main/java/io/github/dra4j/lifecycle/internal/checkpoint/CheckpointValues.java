package io.github.dra4j.lifecycle.internal.checkpoint;

import io.github.dra4j.core.logging.LogValues;
import io.github.dra4j.core.name.NameRules;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The checks the records and the decoder share, so that an entry that can be built can be
 * written and read back, and an entry read back passes the same checks as one built in memory.
 * The rules themselves live in {@link NameRules}. Stateless.
 */
final class CheckpointValues {

  private CheckpointValues() {}

  /**
   * Returns a required string, failing if it is null or empty.
   *
   * @throws IllegalArgumentException naming the field
   */
  static String required(String field, String value) {
    if (value == null || value.isEmpty()) {
      throw new IllegalArgumentException(field + ": required");
    }
    return value;
  }

  /** Fails with the problem, prefixed with the field, if there is one. */
  static void check(String field, Optional<String> problem) {
    if (problem.isPresent()) {
      throw new IllegalArgumentException(field + ": " + problem.get());
    }
  }

  /*
   * The messages below state the rule instead of passing on NameRules' text, which repeats the
   * whole value (once per error): values here come from a file and may hold anything, so they
   * are shown shortened.
   */

  /** The problem of a claim UID (it becomes part of file names), or empty. */
  static Optional<String> uidProblem(String uid) {
    return NameRules.uid(uid).map(p -> "invalid claim UID " + quote(uid)
        + ": must be 1-64 letters, digits or '-', starting and ending with a letter or digit");
  }

  /** The problem of a claim namespace, or empty. */
  static Optional<String> namespaceProblem(String namespace) {
    return NameRules.dnsLabel(namespace).map(p -> "invalid value " + quote(namespace)
        + ": must be a DNS label (at most 63 lower-case letters, digits or '-')");
  }

  /** The problem of a claim name, or empty. */
  static Optional<String> nameProblem(String name) {
    return NameRules.dnsSubdomain(name, NameRules.DNS_SUBDOMAIN_MAX).map(p -> "invalid value "
        + quote(name) + ": must be a DNS subdomain (at most 253 lower-case letters, digits, '-'"
        + " or '.')");
  }

  /** A value quoted for a message: control characters escaped, long values shortened. */
  static String quote(String value) {
    return value == null ? "null" : LogValues.quote(value, 80);
  }

  /** A private copy of an opaque JSON value; JSON null and a missing node become null. */
  static JsonNode copy(JsonNode node) {
    return node == null || node.isNull() || node.isMissingNode() ? null : node.deepCopy();
  }

  /**
   * An I/O error for a message. Java's file exceptions often carry only a path, so the kind of
   * error is added: {@code /x/.checkpoint.json.123.tmp: permission denied}.
   */
  static String describe(IOException e) {
    String message = e.getMessage() == null ? "" : e.getMessage();
    if (e instanceof FileSystemException failure && failure.getReason() == null) {
      String what = e instanceof AccessDeniedException ? "permission denied"
          : e instanceof NoSuchFileException ? "no such file or directory"
          : e instanceof FileAlreadyExistsException ? "file exists"
          : e.getClass().getSimpleName();
      return message.isEmpty() ? what : message + ": " + what;
    }
    return message.isEmpty() ? e.getClass().getSimpleName() : message;
  }
}
