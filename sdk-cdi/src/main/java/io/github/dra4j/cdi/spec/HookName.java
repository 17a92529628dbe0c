package io.github.dra4j.cdi.spec;

import java.util.Optional;

/** The OCI lifecycle points a CDI hook can run at, with their JSON names. */
public enum HookName {
  /** {@code prestart}: deprecated in OCI, still accepted. */
  PRESTART("prestart"),
  /** {@code createRuntime}: in the runtime namespace after the container is created. */
  CREATE_RUNTIME("createRuntime"),
  /** {@code createContainer}: in the container namespace after creation. */
  CREATE_CONTAINER("createContainer"),
  /** {@code startContainer}: in the container before the user process starts. */
  START_CONTAINER("startContainer"),
  /** {@code poststart}: after the user process started. */
  POSTSTART("poststart"),
  /** {@code poststop}: after the container is deleted. */
  POSTSTOP("poststop");

  private final String jsonName;

  HookName(String jsonName) {
    this.jsonName = jsonName;
  }

  /**
   * Returns the name used in the spec's {@code hookName} field and in the OCI {@code hooks}
   * object.
   *
   * @return e.g. {@code createRuntime}
   */
  public String jsonName() {
    return jsonName;
  }

  /**
   * Looks a hook name up by its exact JSON name.
   *
   * @param jsonName the {@code hookName} value
   * @return the hook name, or empty if it is not one of the six
   */
  public static Optional<HookName> fromJsonName(String jsonName) {
    for (HookName name : values()) {
      if (name.jsonName.equals(jsonName)) {
        return Optional.of(name);
      }
    }
    return Optional.empty();
  }
}
