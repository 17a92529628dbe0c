package io.github.dra4j.examples.gpu.nvml;

import io.github.dra4j.examples.gpu.mps.MpsTimeouts;
import io.github.dra4j.examples.gpu.nvml.driverfiles.DriverFilesOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * How the NVML backend finds the driver and watches the GPUs. Immutable; build one with {@link
 * #builder()} or, from the environment the driver's pod gets, {@link #fromEnvironment(Map)}.
 *
 * @param containerDriverRoot where the NVIDIA driver's files are inside this container ({@code
 *     /driver-root} by default, env {@code DRIVER_ROOT_CTR_PATH}): NVML and {@code nvidia-smi}
 *     are looked up under it
 * @param hostDriverRoot where the same files are on the host ({@code /} by default, env {@code
 *     NVIDIA_DRIVER_ROOT}): device nodes found under {@code containerDriverRoot} get host paths
 *     under it
 * @param additionalXidsToIgnore Xids not reported, beside {@link #DEFAULT_IGNORED_XIDS} (env
 *     {@code ADDITIONAL_XIDS_TO_IGNORE}, a comma-separated list)
 * @param healthPollInterval how often the health source checks every GPU (a device query that
 *     finds lost GPUs and decides recovery)
 * @param recoveryQuietPeriod how long a GPU must go without a new Xid or ECC event before that
 *     condition clears (it also needs a healthy check after the event)
 * @param libraryPath an explicit {@code libnvidia-ml.so.1} to load instead of looking under
 *     {@code containerDriverRoot}
 * @param sysfsRoot the sysfs mount, {@code /sys}, where the PCIe root of a GPU is read
 * @param procRoot the procfs mount, {@code /proc}, where MIG capability device minors are read
 * @param commandTimeout how long one {@code nvidia-smi} command may run
 * @param driverFiles which of the driver's files containers get, and the {@code nvidia-cdi-hook}
 *     to run ({@code CDI_DRIVER_CAPABILITIES}, {@code NVIDIA_CDI_HOOK_PATH}, {@code
 *     CDI_DISABLED_HOOKS})
 * @param mpsTimeouts how long MPS control daemons may take to start and to stop
 */
public record NvmlOptions(Path containerDriverRoot, Path hostDriverRoot,
    Set<Integer> additionalXidsToIgnore, Duration healthPollInterval,
    Duration recoveryQuietPeriod, Optional<Path> libraryPath, Path sysfsRoot, Path procRoot,
    Duration commandTimeout, DriverFilesOptions driverFiles, MpsTimeouts mpsTimeouts) {

  /** The environment variable with the container driver root. */
  public static final String ENV_CONTAINER_DRIVER_ROOT = "DRIVER_ROOT_CTR_PATH";

  /** The environment variable with the host driver root. */
  public static final String ENV_HOST_DRIVER_ROOT = "NVIDIA_DRIVER_ROOT";

  /** The environment variable with more Xids to ignore. */
  public static final String ENV_ADDITIONAL_XIDS_TO_IGNORE = "ADDITIONAL_XIDS_TO_IGNORE";

  /**
   * Xids that are never reported: they are the application's fault (13 graphics engine
   * exception, 31 memory page fault, 43 channel stopped, 45 preemptive cleanup, 68 video
   * processor exception, 109 context switch timeout), the same list NVIDIA's device plugin skips.
   */
  public static final Set<Integer> DEFAULT_IGNORED_XIDS = Set.of(13, 31, 43, 45, 68, 109);

  /**
   * Checks the fields.
   *
   * @param containerDriverRoot where the NVIDIA driver's files are inside this container
   * @param hostDriverRoot where the same files are on the host
   * @param additionalXidsToIgnore Xids not reported, beside {@link #DEFAULT_IGNORED_XIDS}
   * @param healthPollInterval how often the health source checks every GPU
   * @param recoveryQuietPeriod how long a GPU must go without a new event before it recovers
   * @param libraryPath an explicit {@code libnvidia-ml.so.1} to load
   * @param sysfsRoot the sysfs mount
   * @param procRoot the procfs mount
   * @param commandTimeout how long one {@code nvidia-smi} command may run
   * @param driverFiles which of the driver's files containers get
   * @param mpsTimeouts how long MPS control daemons may take to start and to stop
   */
  public NvmlOptions {
    requireAbsolute(containerDriverRoot, "containerDriverRoot");
    requireAbsolute(hostDriverRoot, "hostDriverRoot");
    requireAbsolute(sysfsRoot, "sysfsRoot");
    requireAbsolute(procRoot, "procRoot");
    Objects.requireNonNull(libraryPath, "libraryPath");
    libraryPath.ifPresent(p -> requireAbsolute(p, "libraryPath"));
    additionalXidsToIgnore = Set.copyOf(additionalXidsToIgnore);
    for (int xid : additionalXidsToIgnore) {
      if (xid < 0) {
        throw new IllegalArgumentException("additionalXidsToIgnore must not hold negative Xids,"
            + " got " + xid);
      }
    }
    requirePositive(healthPollInterval, "healthPollInterval");
    requirePositive(recoveryQuietPeriod, "recoveryQuietPeriod");
    requirePositive(commandTimeout, "commandTimeout");
    Objects.requireNonNull(driverFiles, "driverFiles");
    Objects.requireNonNull(mpsTimeouts, "mpsTimeouts");
  }

  /**
   * A builder with the defaults: driver roots {@code /driver-root} and {@code /}, no extra
   * ignored Xids, health checks every 5 s, recovery after 5 min without events, NVML looked up
   * under the driver root, {@code /sys}, {@code /proc}, 60 s per {@code nvidia-smi} command,
   * {@link DriverFilesOptions#DEFAULT} driver files, {@link MpsTimeouts#DEFAULT}.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * A builder with the defaults, then what {@code env} sets: {@value #ENV_CONTAINER_DRIVER_ROOT},
   * {@value #ENV_HOST_DRIVER_ROOT} and {@value #ENV_ADDITIONAL_XIDS_TO_IGNORE}. Empty values
   * count as unset.
   *
   * @param env the environment, for example {@code System.getenv()}
   * @return a builder to add flags to
   * @throws IllegalArgumentException if a value is invalid; the message names the variable and
   *     the value
   */
  public static Builder fromEnvironment(Map<String, String> env) {
    Builder builder = builder();
    String containerRoot = env.get(ENV_CONTAINER_DRIVER_ROOT);
    if (containerRoot != null && !containerRoot.isBlank()) {
      builder.containerDriverRoot(absolutePath(ENV_CONTAINER_DRIVER_ROOT, containerRoot));
    }
    String hostRoot = env.get(ENV_HOST_DRIVER_ROOT);
    if (hostRoot != null && !hostRoot.isBlank()) {
      builder.hostDriverRoot(absolutePath(ENV_HOST_DRIVER_ROOT, hostRoot));
    }
    String xids = env.get(ENV_ADDITIONAL_XIDS_TO_IGNORE);
    if (xids != null) {
      builder.additionalXidsToIgnore(parseXids(ENV_ADDITIONAL_XIDS_TO_IGNORE, xids));
    }
    return builder;
  }

  /**
   * Parses a comma-separated list of Xids, such as {@code 48, 79}; blanks around numbers and
   * empty entries are allowed.
   *
   * @param source where the text is from (an environment variable or flag), for the message
   * @param text the list
   * @return the Xids
   * @throws IllegalArgumentException if an entry is not a non-negative integer; the message
   *     names {@code source}, the whole text and the entry
   */
  public static Set<Integer> parseXids(String source, String text) {
    Set<Integer> xids = new TreeSet<>();
    for (String entry : text.split(",", -1)) {
      String trimmed = entry.strip();
      if (trimmed.isEmpty()) {
        continue;
      }
      try {
        int xid = Integer.parseInt(trimmed);
        if (xid < 0) {
          throw new NumberFormatException("negative");
        }
        xids.add(xid);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(source + "=\"" + text + "\" is not a comma-separated"
            + " list of Xid numbers: \"" + trimmed + "\" is not a non-negative integer", e);
      }
    }
    return Set.copyOf(xids);
  }

  /**
   * The Xids the health source does not report: the defaults and the additional ones.
   *
   * @return the set
   */
  public Set<Integer> ignoredXids() {
    Set<Integer> all = new TreeSet<>(DEFAULT_IGNORED_XIDS);
    all.addAll(additionalXidsToIgnore);
    return Set.copyOf(all);
  }

  /**
   * A builder that starts from these options.
   *
   * @return a new builder
   */
  public Builder toBuilder() {
    return new Builder().containerDriverRoot(containerDriverRoot).hostDriverRoot(hostDriverRoot)
        .additionalXidsToIgnore(additionalXidsToIgnore).healthPollInterval(healthPollInterval)
        .recoveryQuietPeriod(recoveryQuietPeriod).libraryPath(libraryPath.orElse(null))
        .sysfsRoot(sysfsRoot).procRoot(procRoot).commandTimeout(commandTimeout)
        .driverFiles(driverFiles).mpsTimeouts(mpsTimeouts);
  }

  private static Path absolutePath(String variable, String value) {
    Path path = Path.of(value);
    if (!path.isAbsolute()) {
      throw new IllegalArgumentException(variable + "=\"" + value
          + "\" must be an absolute path");
    }
    return path.normalize();
  }

  private static void requireAbsolute(Path path, String field) {
    Objects.requireNonNull(path, field);
    if (!path.isAbsolute()) {
      throw new IllegalArgumentException(field + " must be an absolute path, got " + path);
    }
  }

  private static void requirePositive(Duration duration, String field) {
    Objects.requireNonNull(duration, field);
    if (duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException(field + " must be positive, got " + duration);
    }
  }

  /** Builds {@link NvmlOptions}; not thread-safe, owned by whoever created it. */
  public static final class Builder {
    private Path containerDriverRoot = Path.of("/driver-root");
    private Path hostDriverRoot = Path.of("/");
    private Set<Integer> additionalXidsToIgnore = Set.of();
    private Duration healthPollInterval = Duration.ofSeconds(5);
    private Duration recoveryQuietPeriod = Duration.ofMinutes(5);
    private Path libraryPath;
    private Path sysfsRoot = Path.of("/sys");
    private Path procRoot = Path.of("/proc");
    private Duration commandTimeout = Duration.ofSeconds(60);
    private DriverFilesOptions driverFiles = DriverFilesOptions.DEFAULT;
    private MpsTimeouts mpsTimeouts = MpsTimeouts.DEFAULT;

    private Builder() {}

    /**
     * Sets where the driver's files are inside this container.
     *
     * @param path an absolute path
     * @return this builder
     */
    public Builder containerDriverRoot(Path path) {
      this.containerDriverRoot = path;
      return this;
    }

    /**
     * Sets where the driver's files are on the host.
     *
     * @param path an absolute path
     * @return this builder
     */
    public Builder hostDriverRoot(Path path) {
      this.hostDriverRoot = path;
      return this;
    }

    /**
     * Sets the Xids to ignore beside the defaults.
     *
     * @param xids the Xids
     * @return this builder
     */
    public Builder additionalXidsToIgnore(Set<Integer> xids) {
      this.additionalXidsToIgnore = Set.copyOf(xids);
      return this;
    }

    /**
     * Sets how often every GPU is checked.
     *
     * @param interval a positive duration
     * @return this builder
     */
    public Builder healthPollInterval(Duration interval) {
      this.healthPollInterval = interval;
      return this;
    }

    /**
     * Sets how long a GPU must go without new events to recover.
     *
     * @param period a positive duration
     * @return this builder
     */
    public Builder recoveryQuietPeriod(Duration period) {
      this.recoveryQuietPeriod = period;
      return this;
    }

    /**
     * Sets an explicit NVML library to load; null to look it up under the driver root.
     *
     * @param path an absolute path, or null
     * @return this builder
     */
    public Builder libraryPath(Path path) {
      this.libraryPath = path;
      return this;
    }

    /**
     * Sets the sysfs mount.
     *
     * @param path an absolute path
     * @return this builder
     */
    public Builder sysfsRoot(Path path) {
      this.sysfsRoot = path;
      return this;
    }

    /**
     * Sets the procfs mount.
     *
     * @param path an absolute path
     * @return this builder
     */
    public Builder procRoot(Path path) {
      this.procRoot = path;
      return this;
    }

    /**
     * Sets how long one {@code nvidia-smi} command may run.
     *
     * @param timeout a positive duration
     * @return this builder
     */
    public Builder commandTimeout(Duration timeout) {
      this.commandTimeout = timeout;
      return this;
    }

    /**
     * Sets which of the driver's files containers get, and the hook.
     *
     * @param options the options
     * @return this builder
     */
    public Builder driverFiles(DriverFilesOptions options) {
      this.driverFiles = options;
      return this;
    }

    /**
     * Sets how long MPS control daemons may take to start and to stop.
     *
     * @param timeouts the timeouts
     * @return this builder
     */
    public Builder mpsTimeouts(MpsTimeouts timeouts) {
      this.mpsTimeouts = timeouts;
      return this;
    }

    /**
     * Builds the options.
     *
     * @return the options
     * @throws IllegalArgumentException if a value is invalid, naming the field
     */
    public NvmlOptions build() {
      return new NvmlOptions(containerDriverRoot, hostDriverRoot, additionalXidsToIgnore,
          healthPollInterval, recoveryQuietPeriod, Optional.ofNullable(libraryPath), sysfsRoot,
          procRoot, commandTimeout, driverFiles, mpsTimeouts);
    }
  }
}
