package io.github.dra4j.resourceslice.internal.split;

/**
 * The ResourceSlice API limits (Kubernetes {@code resource.k8s.io/v1}, 1.34 to 1.36) that the
 * splitter respects and the validator checks.
 */
public final class SliceLimits {

  /** Devices per slice. */
  public static final int MAX_DEVICES = 128;

  /** Devices per slice when any device of the slice has taints or consumes counters. */
  public static final int MAX_DEVICES_WITH_TAINTS_OR_COUNTERS = 64;

  /** Counter sets per slice. */
  public static final int MAX_COUNTER_SETS = 8;

  /** Counters per counter set. */
  public static final int MAX_COUNTERS_PER_SET = 32;

  /** Taints per device. */
  public static final int MAX_TAINTS = 16;

  /** Attributes plus capacities per device. */
  public static final int MAX_ATTRIBUTES_AND_CAPACITIES = 32;

  /** Counter consumptions per device. */
  public static final int MAX_COUNTER_CONSUMPTIONS = 2;

  /** Counters per counter consumption. */
  public static final int MAX_COUNTERS_PER_CONSUMPTION = 32;

  /** Binding conditions, and separately binding-failure conditions, per device. */
  public static final int MAX_BINDING_CONDITIONS = 4;

  /** Length of a string or version attribute value. */
  public static final int MAX_ATTRIBUTE_VALUE_LENGTH = 64;

  /** Length of the pool name. */
  public static final int MAX_POOL_NAME_LENGTH = 253;

  private SliceLimits() {}
}
