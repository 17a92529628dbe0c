package io.github.dra4j.examples.gpu.nvml.driverfiles;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * The subcommands of NVIDIA's {@code nvidia-cdi-hook} the driver adds to the common CDI edits,
 * in the order they run (each as a {@code createContainer} hook).
 */
public enum CdiHook {

  /** Makes the SONAME and {@code .so} links of the mounted libraries in the container. */
  CREATE_SYMLINKS("create-symlinks"),

  /**
   * Lets an image's CUDA forward-compatibility libraries ({@code /usr/local/cuda/compat}) take
   * precedence when they are newer than the host's driver; needs {@code nvidia-cdi-hook} 1.17.5
   * or newer.
   */
  ENABLE_CUDA_COMPAT("enable-cuda-compat"),

  /** Adds the mounted libraries' directories to the container's linker cache. */
  UPDATE_LDCACHE("update-ldcache");

  private final String subcommand;

  CdiHook(String subcommand) {
    this.subcommand = subcommand;
  }

  /**
   * The subcommand, also the name in settings.
   *
   * @return for example {@code update-ldcache}
   */
  public String subcommand() {
    return subcommand;
  }

  /**
   * Parses a comma-separated list of subcommands, or {@code all}; empty text is no hook.
   *
   * @param source where the text is from (a variable or flag), for the message
   * @param text for example {@code enable-cuda-compat}
   * @return the hooks
   * @throws IllegalArgumentException naming {@code source}, the text and the unknown entry
   */
  public static Set<CdiHook> parse(String source, String text) {
    Set<CdiHook> result = EnumSet.noneOf(CdiHook.class);
    for (String entry : text.split(",", -1)) {
      String name = entry.strip().toLowerCase(Locale.ROOT);
      if (name.isEmpty()) {
        continue;
      }
      if (name.equals("all")) {
        result.addAll(EnumSet.allOf(CdiHook.class));
        continue;
      }
      CdiHook found = null;
      for (CdiHook hook : values()) {
        if (hook.subcommand.equals(name)) {
          found = hook;
        }
      }
      if (found == null) {
        throw new IllegalArgumentException(source + "=\"" + text + "\" must be a comma-separated"
            + " list of create-symlinks, enable-cuda-compat, update-ldcache or all; unknown: "
            + entry.strip());
      }
      result.add(found);
    }
    return Set.copyOf(result);
  }
}
