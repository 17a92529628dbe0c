package io.github.dra4j.resourceapi.internal.deviceclass;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassSpec;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.github.dra4j.resourceapi.FeatureGates;
import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.internal.claim.DeviceConfigRules;
import io.github.dra4j.resourceapi.internal.claim.SelectorRules;
import io.github.dra4j.resourceapi.ResourceLimits;
import io.github.dra4j.resourceapi.internal.field.Collections;
import io.github.dra4j.resourceapi.internal.field.Errors;
import io.github.dra4j.resourceapi.internal.field.FieldPath;
import io.github.dra4j.resourceapi.internal.field.SemanticEquality;
import io.github.dra4j.resourceapi.internal.meta.CoreRules;
import io.github.dra4j.resourceapi.internal.meta.ObjectMetaRules;
import io.github.dra4j.resourceapi.internal.meta.ObjectMetaRules.NameFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * kube-apiserver's validation of a DeviceClass (Kubernetes 1.36's {@code ValidateDeviceClass} and
 * {@code ValidateDeviceClassUpdate}): a cluster-scoped object with a long name, at most 32
 * selectors, at most 32 config entries and an optional extended resource name. On update,
 * selectors exactly as stored (same order) count as stored: they are compiled in the
 * stored-expressions environment; config entries exactly as stored keep parameters over the size
 * limit. Stateless.
 */
public final class DeviceClassValidation {

  private static final FieldPath METADATA = FieldPath.root("metadata");
  private static final FieldPath SPEC = FieldPath.root("spec");

  private DeviceClassValidation() {}

  /**
   * Validates a class being created.
   *
   * @param deviceClass the class
   * @param gates the API server's feature gates
   * @return the errors, empty if valid
   */
  public static List<FieldError> validate(DeviceClass deviceClass, FeatureGates gates) {
    Objects.requireNonNull(deviceClass, "deviceClass");
    Objects.requireNonNull(gates, "gates");
    List<FieldError> errors = new ArrayList<>(ObjectMetaRules.objectMeta(
        deviceClass.getMetadata(), false, NameFormat.LONG_NAME, METADATA));
    errors.addAll(spec(deviceClass.getSpec(), null, gates));
    return errors;
  }

  /**
   * Validates an update of a class: its metadata, what may not change in it, and its spec.
   *
   * @param deviceClass the new class
   * @param old the stored class
   * @param gates the API server's feature gates
   * @return the errors, empty if valid
   */
  public static List<FieldError> validateUpdate(DeviceClass deviceClass, DeviceClass old,
      FeatureGates gates) {
    Objects.requireNonNull(deviceClass, "deviceClass");
    Objects.requireNonNull(old, "old");
    Objects.requireNonNull(gates, "gates");
    List<FieldError> errors = new ArrayList<>(ObjectMetaRules.objectMeta(
        deviceClass.getMetadata(), false, NameFormat.LONG_NAME, METADATA));
    errors.addAll(ObjectMetaRules.objectMetaUpdate(deviceClass.getMetadata(), old.getMetadata(),
        METADATA));
    errors.addAll(spec(deviceClass.getSpec(),
        old.getSpec() == null ? new DeviceClassSpec() : old.getSpec(), gates));
    return errors;
  }

  private static List<FieldError> spec(DeviceClassSpec spec, DeviceClassSpec old,
      FeatureGates gates) {
    DeviceClassSpec value = spec == null ? new DeviceClassSpec() : spec;
    List<DeviceSelector> selectors = value.getSelectors();
    List<DeviceClassConfiguration> config = value.getConfig();
    boolean storedSelectors = old != null
        && SemanticEquality.equal(selectors, old.getSelectors());
    boolean storedConfig = old != null && SemanticEquality.equal(config, old.getConfig());
    List<FieldError> errors = new ArrayList<>();
    errors.addAll(SelectorRules.selectors(selectors, SPEC.child("selectors"), gates,
        storedSelectors));
    errors.addAll(Collections.list(config, ResourceLimits.DEVICE_CONFIG_MAX,
        (entry, path) -> DeviceConfigRules.deviceConfiguration(
            entry == null ? null : entry.getOpaque(), path, storedConfig),
        SPEC.child("config")));
    String extendedResourceName = value.getExtendedResourceName();
    if (extendedResourceName != null && !CoreRules.isExtendedResourceName(extendedResourceName)) {
      errors.add(Errors.invalid(SPEC.child("extendedResourceName"), extendedResourceName,
          "must be a valid extended resource name"));
    }
    return errors;
  }
}
