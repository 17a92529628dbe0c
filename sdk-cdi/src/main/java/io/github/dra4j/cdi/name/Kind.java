package io.github.dra4j.cdi.name;

/**
 * The kind of a CDI spec, {@code vendor/class}, e.g. {@code k8s.gpu.example.com/gpu}. Every device
 * of a spec is addressed as {@code vendor/class=name}.
 *
 * <p>Instances always hold names that pass the library's rules ({@link NameRules#vendorProblem},
 * {@link NameRules#classProblem}); the stricter writer rules are applied by the spec validator.
 * Construction refuses other names with {@link InvalidNameException}.
 *
 * @param vendor the vendor, e.g. {@code k8s.gpu.example.com}
 * @param className the class, e.g. {@code gpu}
 */
public record Kind(String vendor, String className) {

  /**
   * Checks both parts.
   *
   * @param vendor the vendor
   * @param className the class
   * @throws InvalidNameException if the vendor or class breaks the library's rules
   */
  public Kind {
    NameRules.vendorProblem(vendor)
        .ifPresent(reason -> {
          throw new InvalidNameException("vendor", vendor, reason);
        });
    NameRules.classProblem(className)
        .ifPresent(reason -> {
          throw new InvalidNameException("class", className, reason);
        });
  }

  /**
   * Creates a kind from its parts.
   *
   * @param vendor the vendor
   * @param className the class
   * @return the kind
   * @throws InvalidNameException if a part breaks the library's rules
   */
  public static Kind of(String vendor, String className) {
    return new Kind(vendor, className);
  }

  /**
   * Parses {@code vendor/class}, splitting at the first {@code /} like the library does. Without a
   * {@code /}, or with an empty part, the vendor counts as empty.
   *
   * @param kind the kind text
   * @return the kind
   * @throws InvalidNameException naming field {@code kind} if the text is not a valid kind
   */
  public static Kind parse(String kind) {
    int slash = kind == null ? -1 : kind.indexOf('/');
    if (slash <= 0 || slash == kind.length() - 1) {
      throw new InvalidNameException("kind", String.valueOf(kind), "invalid vendor. empty name");
    }
    try {
      return new Kind(kind.substring(0, slash), kind.substring(slash + 1));
    } catch (InvalidNameException e) {
      InvalidNameException wrapped = new InvalidNameException("kind", kind, e.getMessage());
      wrapped.initCause(e);
      throw wrapped;
    }
  }

  /**
   * Names one device of this kind.
   *
   * @param deviceName the device name
   * @return {@code vendor/class=deviceName}
   * @throws InvalidNameException if the device name breaks the library's rules
   */
  public QualifiedDeviceName device(String deviceName) {
    return new QualifiedDeviceName(this, deviceName);
  }

  /**
   * Returns {@code vendor/class}.
   *
   * @return the kind as written in a spec's {@code kind} field
   */
  @Override
  public String toString() {
    return vendor + "/" + className;
  }
}
