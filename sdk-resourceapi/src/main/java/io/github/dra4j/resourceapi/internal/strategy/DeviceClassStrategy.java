package io.github.dra4j.resourceapi.internal.strategy;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.github.dra4j.resourceapi.FeatureGates;
import io.github.dra4j.resourceapi.internal.field.SemanticEquality;
import java.util.List;

/**
 * {@code pkg/registry/resource/deviceclass/strategy.go} (Kubernetes 1.36). Cluster-scoped, no
 * status. Objects are changed in place.
 *
 * <p>Validation: create {@code ValidateDeviceClass}; update {@code ValidateDeviceClass} of the new
 * class plus {@code ValidateDeviceClassUpdate} (selectors unchanged from the stored class are
 * compiled as stored expressions).
 */
public final class DeviceClassStrategy {

  private DeviceClassStrategy() {}

  /**
   * Prepares a new class: generation 1, then {@code extendedResourceName} dropped when its gate
   * is off.
   *
   * @param deviceClass the class, changed in place
   * @param gates the server's gates
   */
  public static void prepareForCreate(DeviceClass deviceClass, FeatureGates gates) {
    MetaUpdates.firstGeneration(deviceClass);
    dropDisabledFields(deviceClass, null, gates);
  }

  /**
   * Prepares an update: the disabled fields dropped unless the stored class uses them, THEN the
   * generation incremented if the spec changed (the reverse order of ResourceSlice's).
   *
   * @param deviceClass the new class, changed in place
   * @param old the stored class
   * @param gates the server's gates
   */
  public static void prepareForUpdate(DeviceClass deviceClass, DeviceClass old,
      FeatureGates gates) {
    dropDisabledFields(deviceClass, old, gates);
    MetaUpdates.nextGeneration(deviceClass, old,
        !SemanticEquality.equal(deviceClass.getSpec(), old.getSpec()));
  }

  /**
   * Returns the warnings of a create: none.
   *
   * @param deviceClass the class
   * @return an empty list
   */
  public static List<String> warningsOnCreate(DeviceClass deviceClass) {
    return List.of();
  }

  /**
   * Returns the warnings of an update: none.
   *
   * @param deviceClass the new class
   * @param old the stored class
   * @return an empty list
   */
  public static List<String> warningsOnUpdate(DeviceClass deviceClass, DeviceClass old) {
    return List.of();
  }

  private static void dropDisabledFields(DeviceClass deviceClass, DeviceClass old,
      FeatureGates gates) {
    if (deviceClass.getSpec() == null || gates.enabled(FeatureGates.DRA_EXTENDED_RESOURCE)) {
      return;
    }
    boolean inUse = old != null && old.getSpec() != null
        && old.getSpec().getExtendedResourceName() != null;
    if (!inUse) {
      deviceClass.getSpec().setExtendedResourceName(null);
    }
  }
}
