package io.github.dra4j.resourceapi.internal.claim;

import io.github.dra4j.cel.DeviceSelectorEnvironment;
import io.github.dra4j.cel.KubernetesVersion;
import io.github.dra4j.cel.NewExpressionOptions;
import io.github.dra4j.resourceapi.FeatureGates;

/**
 * The CEL environments a Kubernetes 1.36 API server compiles device selectors in: the
 * new-expressions environment of its default compatibility version (1.35) for selectors being
 * created or changed, one for each setting of the two gates that change it ({@code
 * DRAConsumableCapacity}, {@code DRAListTypeAttributes}), and the stored-expressions environment
 * for selectors that were stored before. Each environment is built on first use, once per JVM
 * (building one takes a noticeable fraction of a second), and is safe to share.
 */
final class SelectorEnvironments {

  /** The gate of list-typed attributes (alpha in 1.36); not one {@link FeatureGates} lists yet. */
  static final String DRA_LIST_TYPE_ATTRIBUTES = "DRAListTypeAttributes";

  private static final KubernetesVersion SERVER = KubernetesVersion.of(1, 36);

  private SelectorEnvironments() {}

  /**
   * Returns the environment an expression is compiled in.
   *
   * @param gates the API server's feature gates
   * @param stored whether the expression was stored before
   * @return the environment
   */
  static DeviceSelectorEnvironment forExpression(FeatureGates gates, boolean stored) {
    if (stored) {
      return DeviceSelectorEnvironment.stored();
    }
    boolean consumableCapacity = gates.enabled(FeatureGates.DRA_CONSUMABLE_CAPACITY);
    boolean listTypeAttributes = gates.asMap().getOrDefault(DRA_LIST_TYPE_ATTRIBUTES, false);
    if (consumableCapacity) {
      return listTypeAttributes ? CapacityAndLists.ENVIRONMENT : Capacity.ENVIRONMENT;
    }
    return listTypeAttributes ? Lists.ENVIRONMENT : Plain.ENVIRONMENT;
  }

  private static DeviceSelectorEnvironment build(boolean consumableCapacity,
      boolean listTypeAttributes) {
    return DeviceSelectorEnvironment.newExpressions(NewExpressionOptions.builder(SERVER)
        .consumableCapacity(consumableCapacity)
        .listTypeAttributes(listTypeAttributes)
        .build());
  }

  /** Both gates off. */
  private static final class Plain {
    static final DeviceSelectorEnvironment ENVIRONMENT = build(false, false);
  }

  /** {@code DRAConsumableCapacity} on. */
  private static final class Capacity {
    static final DeviceSelectorEnvironment ENVIRONMENT = build(true, false);
  }

  /** {@code DRAListTypeAttributes} on. */
  private static final class Lists {
    static final DeviceSelectorEnvironment ENVIRONMENT = build(false, true);
  }

  /** Both gates on. */
  private static final class CapacityAndLists {
    static final DeviceSelectorEnvironment ENVIRONMENT = build(true, true);
  }
}
