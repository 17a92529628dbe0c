package io.github.dra4j.examples.gpu.nvml.driverfiles;

import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What of the driver's installation containers get, and how the hooks run.
 *
 * @param capabilities which parts of the driver ({@code CDI_DRIVER_CAPABILITIES}, default {@link
 *     DriverCapability#DEFAULT})
 * @param hookPath the host path of {@code nvidia-cdi-hook} ({@code NVIDIA_CDI_HOOK_PATH}); empty
 *     to look for it under the driver root
 * @param disabledHooks hooks not to add ({@code CDI_DISABLED_HOOKS}), for example {@code
 *     enable-cuda-compat} with an {@code nvidia-cdi-hook} older than 1.17.5
 */
public record DriverFilesOptions(Set<DriverCapability> capabilities, Optional<String> hookPath,
    Set<CdiHook> disabledHooks) {

  /** Compute and utility, the hook looked up under the driver root, every hook enabled. */
  public static final DriverFilesOptions DEFAULT = new DriverFilesOptions(
      DriverCapability.DEFAULT, Optional.empty(), Set.of());

  /**
   * Checks the fields.
   *
   * @param capabilities not empty
   * @param hookPath an absolute path if present
   * @param disabledHooks copied
   */
  public DriverFilesOptions {
    capabilities = Set.copyOf(capabilities);
    if (capabilities.isEmpty()) {
      throw new IllegalArgumentException("capabilities must not be empty");
    }
    Objects.requireNonNull(hookPath, "hookPath");
    hookPath.ifPresent(path -> {
      if (!path.startsWith("/")) {
        throw new IllegalArgumentException("hookPath must be an absolute host path, got "
            + path);
      }
    });
    disabledHooks = Set.copyOf(disabledHooks);
  }
}
