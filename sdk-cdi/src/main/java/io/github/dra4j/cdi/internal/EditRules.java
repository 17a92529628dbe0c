package io.github.dra4j.cdi.internal;

import java.util.Optional;
import java.util.Set;

/**
 * The rules for single values of container edits in files this SDK writes, each returning the
 * reason a value breaks it. Used by the model's builders, which refuse a bad value when it is
 * added, and by the writer rules of the spec validator, so that both say the same. Stateless.
 */
public final class EditRules {
  /** The longest Linux network interface name ({@code IFNAMSIZ} minus the terminating NUL). */
  public static final int MAX_INTERFACE_NAME_LENGTH = 15;
  /** The largest {@code fileMode}: permission, set-id and sticky bits, no file type bits. */
  public static final int MAX_FILE_MODE = 07777;
  private static final int MAX_CLOS_ID_LENGTH = 4096;
  private static final Set<String> HOOK_NAMES = Set.of("prestart", "createRuntime",
      "createContainer", "startContainer", "poststart", "poststop");
  private static final Set<String> NODE_TYPES = Set.of("", "b", "c", "u", "p");

  private EditRules() {}

  /**
   * The name of an environment variable: not empty, no {@code '='} (a runtime splits the entry
   * at the first one, so {@code env("A=B", "1")} would set {@code A} to {@code B=1}), no NUL.
   *
   * @param name the name, may be null
   * @return the reason it is refused, or empty
   */
  public static Optional<String> envNameProblem(String name) {
    if (name == null) {
      return Optional.of("the name is null");
    }
    if (name.isEmpty()) {
      return Optional.of("the name is empty");
    }
    if (name.indexOf('=') >= 0) {
      return Optional.of("a name must not contain '=' (the runtime would split the entry at it)");
    }
    return nul(name, "the name");
  }

  /**
   * The value of an environment variable: not null (an empty value is fine), no NUL.
   *
   * @param value the value, may be null
   * @return the reason it is refused, or empty
   */
  public static Optional<String> envValueProblem(String value) {
    if (value == null) {
      return Optional.of("the value is null (use \"\" for an empty value)");
    }
    return nul(value, "the value");
  }

  /**
   * A raw {@code NAME=VALUE} entry: a {@code '='} after a non-empty name, no NUL.
   *
   * @param entry the entry, may be null
   * @return the reason it is refused, or empty
   */
  public static Optional<String> envEntryProblem(String entry) {
    if (entry == null) {
      return Optional.of("the entry is null");
    }
    if (entry.indexOf('=') < 1) {
      return Optional.of("must be NAME=VALUE with a non-empty NAME");
    }
    return nul(entry, "the entry");
  }

  /**
   * A path in the container or on the host: absolute, normalized, no NUL.
   *
   * @param path the path, may be null
   * @return the reason it is refused, or empty
   */
  public static Optional<String> absolutePathProblem(String path) {
    if (path == null || path.isEmpty()) {
      return Optional.of("the path is empty");
    }
    if (path.indexOf('\0') >= 0) {
      return Optional.of("path contains a NUL character");
    }
    if (!path.startsWith("/")) {
      return Optional.of("path must be absolute");
    }
    if (path.length() > 1 && path.endsWith("/")) {
      return Optional.of("path must not end with '/'");
    }
    for (String segment : path.substring(1).split("/", -1)) {
      if (path.length() > 1
          && (segment.isEmpty() || segment.equals(".") || segment.equals(".."))) {
        return Optional.of("path must be normalized (no empty, '.' or '..' segments)");
      }
    }
    return Optional.empty();
  }

  /**
   * A device node type: {@code b}, {@code c}, {@code u}, {@code p} or empty.
   *
   * @param type the type code, not null
   * @return the reason it is refused, or empty
   */
  public static Optional<String> deviceTypeProblem(String type) {
    return NODE_TYPES.contains(type) ? Optional.empty()
        : Optional.of("must be one of b, c, u, p or empty");
  }

  /**
   * The cgroup access of a device node: any combination of {@code r}, {@code w}, {@code m}.
   *
   * @param permissions the access, not null
   * @return the reason it is refused, or empty
   */
  public static Optional<String> permissionsProblem(String permissions) {
    return permissions.chars().allMatch(c -> c == 'r' || c == 'w' || c == 'm')
        ? Optional.empty() : Optional.of("must be a combination of r, w and m");
  }

  /**
   * A device node's file mode: permission bits only.
   *
   * @param fileMode the mode, or null when not given
   * @return the reason it is refused, or empty
   */
  public static Optional<String> fileModeProblem(Integer fileMode) {
    return fileMode != null && (fileMode < 0 || fileMode > MAX_FILE_MODE)
        ? Optional.of("fileMode holds only permission bits (0 to 07777), not file type bits")
        : Optional.empty();
  }

  /**
   * A hook's name: one of the six OCI hook points.
   *
   * @param hookName the name, not null
   * @return the reason it is refused, or empty
   */
  public static Optional<String> hookNameProblem(String hookName) {
    return HOOK_NAMES.contains(hookName) ? Optional.empty()
        : Optional.of("must be one of prestart, createRuntime, createContainer, startContainer,"
            + " poststart, poststop");
  }

  /**
   * A hook's timeout: above 0 when given.
   *
   * @param timeout seconds, or null when not given
   * @return the reason it is refused, or empty
   */
  public static Optional<String> hookTimeoutProblem(Integer timeout) {
    return timeout != null && timeout <= 0 ? Optional.of("hook timeout must be greater than 0")
        : Optional.empty();
  }

  /**
   * An Intel RDT class of service as written by this SDK: empty, or a name shorter than 4096
   * characters that is not {@code .} or {@code ..} and has no {@code '/'} or newline. The root
   * {@code "/"} is refused too, because runtimes before CDI v1.1.0 refuse it.
   *
   * @param closId the class of service, not null
   * @return the reason it is refused, or empty
   */
  public static Optional<String> closIdProblem(String closId) {
    if (closId.isEmpty()) {
      return Optional.empty();
    }
    if (closId.equals("/")) {
      return Optional.of("the root CLOS \"/\" is refused by runtimes older than CDI v1.1.0");
    }
    if (closId.length() >= MAX_CLOS_ID_LENGTH || closId.equals(".") || closId.equals("..")
        || closId.contains("/") || closId.contains("\n")) {
      return Optional.of("must be shorter than 4096, not . or .., without '/' or newline");
    }
    return Optional.empty();
  }

  /**
   * A Linux network interface name: 1 to 15 characters, not {@code .} or {@code ..}, no
   * {@code '/'}, {@code ':'}, whitespace or NUL.
   *
   * @param name the name, may be null
   * @return the reason it is refused, or empty
   */
  public static Optional<String> interfaceNameProblem(String name) {
    if (name == null || name.isEmpty()) {
      return Optional.of("the interface name is empty");
    }
    boolean bad = name.length() > MAX_INTERFACE_NAME_LENGTH || name.equals(".")
        || name.equals("..") || name.chars().anyMatch(c -> c == '/' || c == ':'
            || Character.isWhitespace(c) || c == 0);
    return bad ? Optional.of("not a Linux interface name (1 to 15 characters, not . or ..,"
        + " no '/', ':' or whitespace)") : Optional.empty();
  }

  /**
   * Quotes a value for a message, showing control characters (NUL, newline) as {@code \\uXXXX}
   * so that the message stays on one line.
   *
   * @param value the value, may be null
   * @return {@code "value"}, or {@code null}
   */
  public static String quote(String value) {
    if (value == null) {
      return "null";
    }
    StringBuilder out = new StringBuilder(value.length() + 2).append('"');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (Character.isISOControl(c)) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.append('"').toString();
  }

  private static Optional<String> nul(String value, String what) {
    return value.indexOf('\0') >= 0 ? Optional.of(what + " contains a NUL character")
        : Optional.empty();
  }
}
