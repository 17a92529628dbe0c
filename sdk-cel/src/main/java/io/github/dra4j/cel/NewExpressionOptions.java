package io.github.dra4j.cel;

import io.github.dra4j.core.stability.KubernetesAlpha;
import java.util.Objects;

/**
 * Which API server a {@linkplain DeviceSelectorEnvironment#newExpressions new-expressions
 * environment} stands for: the server's version, the compatibility version it validates new and
 * changed expressions for, and the two DRA feature gates that change what a selector may use.
 * Immutable; build it with {@link #forServer} (the server's defaults) or {@link #builder}.
 *
 * <p>An API server accepts in a created or changed selector only the CEL options introduced at
 * or before its compatibility version, which by default is the previous minor release, plus the
 * gated additions whose gate is on:
 *
 * <ul>
 *   <li>{@code device.allowMultipleAllocations} needs {@code DRAConsumableCapacity} (alpha in
 *       1.34, beta and on by default from 1.36);
 *   <li>list-valued attributes (iterating an attribute with a macro) and {@code includes()} need
 *       {@code DRAListTypeAttributes} (alpha in 1.36, off by default).
 * </ul>
 *
 * @param serverVersion the API server's release, 1.31 or later (the first
 *     release whose selectors see the {@code device} variable)
 * @param compatibilityVersion the release whose CEL options new expressions may use; not after
 *     {@code serverVersion} and not before 1.29
 * @param consumableCapacity whether the feature gate {@code DRAConsumableCapacity} is on; only
 *     possible from 1.34
 * @param listTypeAttributes whether the feature gate {@code DRAListTypeAttributes} is on; only
 *     possible from 1.36
 */
public record NewExpressionOptions(
    KubernetesVersion serverVersion,
    KubernetesVersion compatibilityVersion,
    @KubernetesAlpha(feature = "DRAConsumableCapacity", since = "1.34", beta = "1.36") boolean consumableCapacity,
    @KubernetesAlpha(feature = "DRAListTypeAttributes", since = "1.36") boolean listTypeAttributes) {

  /** The oldest API server release modelled, 1.31: the first whose selectors see {@code device}. */
  public static final KubernetesVersion OLDEST_SERVER = KubernetesVersion.of(1, 31);

  /**
   * The oldest compatibility version modelled, 1.29; older ones would need the strings extension
   * of before 1.29.
   */
  public static final KubernetesVersion OLDEST_COMPATIBILITY = KubernetesVersion.of(1, 29);

  private static final KubernetesVersion CONSUMABLE_CAPACITY_GATE = KubernetesVersion.of(1, 34);
  private static final KubernetesVersion CONSUMABLE_CAPACITY_ON_BY_DEFAULT = KubernetesVersion.of(1,
      36);
  private static final KubernetesVersion LIST_TYPE_ATTRIBUTES_GATE = KubernetesVersion.of(1, 36);

  /**
   * Checks the versions against each other and the gates against the server version.
   *
   * @param serverVersion the API server's release, 1.31 or later
   * @param compatibilityVersion not after {@code serverVersion}, not before 1.29
   * @param consumableCapacity whether {@code DRAConsumableCapacity} is on; the server must be 1.34
   *     or later
   * @param listTypeAttributes whether {@code DRAListTypeAttributes} is on; the server must be 1.36
   *     or later
   * @throws NullPointerException naming the version that is null
   * @throws IllegalArgumentException naming the option and its value when it is out of range or
   *     a gate that the server version does not have is on
   */
  public NewExpressionOptions {
    checkServer(serverVersion);
    checkCompatibility(serverVersion, compatibilityVersion);
    checkGate(serverVersion, consumableCapacity, "consumableCapacity", "DRAConsumableCapacity",
        CONSUMABLE_CAPACITY_GATE);
    checkGate(serverVersion, listTypeAttributes, "listTypeAttributes", "DRAListTypeAttributes",
        LIST_TYPE_ATTRIBUTES_GATE);
  }

  /**
   * Returns the options of an API server of the given release with its defaults: compatibility
   * version the previous minor release, each gate as the release has it by default.
   *
   * @param serverVersion the API server's release, 1.31 or later
   * @return the default options of that release
   * @throws NullPointerException if {@code serverVersion} is null
   * @throws IllegalArgumentException if {@code serverVersion} is before 1.31
   */
  public static NewExpressionOptions forServer(KubernetesVersion serverVersion) {
    return builder(serverVersion).build();
  }

  /**
   * Returns a builder for an API server of the given release, holding that release's defaults.
   *
   * @param serverVersion the API server's release, 1.31 or later
   * @return a builder; not thread-safe
   * @throws NullPointerException if {@code serverVersion} is null
   * @throws IllegalArgumentException if {@code serverVersion} is before 1.31
   */
  public static Builder builder(KubernetesVersion serverVersion) {
    return new Builder(checkServer(serverVersion));
  }

  /**
   * Describes the API server these options stand for.
   *
   * @return e.g. {@code Kubernetes 1.34 API server (compatibility version 1.33,
   *     DRAConsumableCapacity off, DRAListTypeAttributes off)}
   */
  @Override
  public String toString() {
    return "Kubernetes " + serverVersion + " API server (compatibility version "
        + compatibilityVersion + ", DRAConsumableCapacity " + onOff(consumableCapacity)
        + ", DRAListTypeAttributes " + onOff(listTypeAttributes) + ")";
  }

  private static String onOff(boolean on) {
    return on ? "on" : "off";
  }

  private static KubernetesVersion checkServer(KubernetesVersion serverVersion) {
    Objects.requireNonNull(serverVersion, "serverVersion");
    if (!serverVersion.isAtLeast(OLDEST_SERVER)) {
      throw new IllegalArgumentException("serverVersion must be " + OLDEST_SERVER
          + " or later (the first release whose selectors see the device variable), got "
          + serverVersion);
    }
    return serverVersion;
  }

  private static KubernetesVersion checkCompatibility(
      KubernetesVersion serverVersion, KubernetesVersion compatibilityVersion) {
    Objects.requireNonNull(compatibilityVersion, "compatibilityVersion");
    if (compatibilityVersion.compareTo(serverVersion) > 0) {
      throw new IllegalArgumentException(
          "compatibilityVersion must not be after the server version "
              + serverVersion + ", got " + compatibilityVersion);
    }
    if (!compatibilityVersion.isAtLeast(OLDEST_COMPATIBILITY)) {
      throw new IllegalArgumentException("compatibilityVersion must be " + OLDEST_COMPATIBILITY
          + " or later, got " + compatibilityVersion);
    }
    return compatibilityVersion;
  }

  private static void checkGate(KubernetesVersion serverVersion, boolean on, String option,
      String gate, KubernetesVersion introduced) {
    if (on && !serverVersion.isAtLeast(introduced)) {
      throw new IllegalArgumentException(option + ": the feature gate " + gate + " exists from "
          + "Kubernetes " + introduced + ", not in " + serverVersion);
    }
  }

  /** Collects the options of one API server; not thread-safe, use from one thread. */
  public static final class Builder {
    private final KubernetesVersion serverVersion;
    private KubernetesVersion compatibilityVersion;
    private boolean consumableCapacity;
    private boolean listTypeAttributes;

    private Builder(KubernetesVersion serverVersion) {
      this.serverVersion = serverVersion;
      this.compatibilityVersion = serverVersion.previousMinor();
      this.consumableCapacity = serverVersion.isAtLeast(CONSUMABLE_CAPACITY_ON_BY_DEFAULT);
      this.listTypeAttributes = false;
    }

    /**
     * Sets the compatibility version (default: the release before the server's, what the API
     * server uses unless told otherwise).
     *
     * @param version the release whose CEL options new expressions may use; not after the server
     *     version, not before 1.29
     * @return this builder
     * @throws NullPointerException if {@code version} is null
     * @throws IllegalArgumentException naming the option and the version when it is out of range
     */
    public Builder compatibilityVersion(KubernetesVersion version) {
      this.compatibilityVersion = checkCompatibility(serverVersion, version);
      return this;
    }

    /**
     * Sets the feature gate {@code DRAConsumableCapacity} (default: on from 1.36, where it is
     * beta; off in 1.34 and 1.35, where it is alpha). With it on, new expressions may read
     * {@code device.allowMultipleAllocations}.
     *
     * @param on whether the gate is on
     * @return this builder
     * @throws IllegalArgumentException if {@code on} is true and the server is older than 1.34
     */
    @KubernetesAlpha(feature = "DRAConsumableCapacity", since = "1.34", beta = "1.36")
    public Builder consumableCapacity(boolean on) {
      checkGate(serverVersion, on, "consumableCapacity", "DRAConsumableCapacity",
          CONSUMABLE_CAPACITY_GATE);
      this.consumableCapacity = on;
      return this;
    }

    /**
     * Sets the feature gate {@code DRAListTypeAttributes} (default off; alpha from 1.36). With it
     * on, new expressions may iterate attribute values with macros and call {@code includes()}.
     *
     * @param on whether the gate is on
     * @return this builder
     * @throws IllegalArgumentException if {@code on} is true and the server is older than 1.36
     */
    @KubernetesAlpha(feature = "DRAListTypeAttributes", since = "1.36")
    public Builder listTypeAttributes(boolean on) {
      checkGate(serverVersion, on, "listTypeAttributes", "DRAListTypeAttributes",
          LIST_TYPE_ATTRIBUTES_GATE);
      this.listTypeAttributes = on;
      return this;
    }

    /**
     * Builds the options.
     *
     * @return immutable options; later changes to this builder do not affect them
     */
    public NewExpressionOptions build() {
      return new NewExpressionOptions(
          serverVersion, compatibilityVersion, consumableCapacity, listTypeAttributes);
    }
  }
}
