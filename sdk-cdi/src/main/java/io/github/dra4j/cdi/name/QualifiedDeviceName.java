package io.github.dra4j.cdi.name;

/**
 * A fully qualified CDI device name (a CDI device ID), {@code vendor/class=name}: what a DRA driver
 * returns to the kubelet and what a container runtime looks up in its CDI cache.
 *
 * <p>Construction refuses (with {@link InvalidNameException}) a device name that breaks the
 * library's rules.
 *
 * @param kind the vendor and class
 * @param name the device name within the kind
 */
public record QualifiedDeviceName(Kind kind, String name) {

  /**
   * Checks the device name.
   *
   * @param kind the vendor and class
   * @param name the device name within the kind
   * @throws InvalidNameException if the device name breaks the library's rules
   * @throws NullPointerException if {@code kind} is null
   */
  public QualifiedDeviceName {
    if (kind == null) {
      throw new NullPointerException("kind");
    }
    NameRules.deviceNameProblem(name)
        .ifPresent(reason -> {
          throw new InvalidNameException("device name", String.valueOf(name), reason);
        });
  }

  /**
   * Parses {@code vendor/class=name} the way the library does: split at the first {@code =}, then
   * the qualifier at its first {@code /}. A string that is empty or starts with {@code /} is a
   * plain path, not a CDI name.
   *
   * @param qualifiedName the text
   * @return the parsed name
   * @throws InvalidNameException naming field {@code qualified device name} and the text if it is
   *     not a valid CDI device name
   */
  public static QualifiedDeviceName parse(String qualifiedName) {
    String field = "qualified device name";
    if (qualifiedName == null || qualifiedName.isEmpty() || qualifiedName.startsWith("/")) {
      throw new InvalidNameException(
          field, String.valueOf(qualifiedName), "not a CDI device name (empty or a path)");
    }
    int equals = qualifiedName.indexOf('=');
    if (equals < 0) {
      throw new InvalidNameException(
          field, qualifiedName, "missing '=' between vendor/class and device name");
    }
    try {
      Kind kind = Kind.parse(qualifiedName.substring(0, equals));
      return new QualifiedDeviceName(kind, qualifiedName.substring(equals + 1));
    } catch (InvalidNameException e) {
      InvalidNameException wrapped = new InvalidNameException(field, qualifiedName, e.getMessage());
      wrapped.initCause(e);
      throw wrapped;
    }
  }

  /**
   * Tells whether a string is a valid CDI device name.
   *
   * @param text the text
   * @return true if {@link #parse} accepts it
   */
  public static boolean isQualifiedName(String text) {
    try {
      parse(text);
      return true;
    } catch (InvalidNameException e) {
      return false;
    }
  }

  /**
   * Returns the vendor part.
   *
   * @return the vendor
   */
  public String vendor() {
    return kind.vendor();
  }

  /**
   * Returns the class part.
   *
   * @return the class
   */
  public String className() {
    return kind.className();
  }

  /**
   * Returns {@code vendor/class=name}.
   *
   * @return the device ID as a runtime expects it
   */
  @Override
  public String toString() {
    return kind + "=" + name;
  }
}
