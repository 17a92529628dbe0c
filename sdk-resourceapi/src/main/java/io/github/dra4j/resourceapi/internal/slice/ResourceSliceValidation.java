package io.github.dra4j.resourceapi.internal.slice;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.ResourcePool;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceSpec;
import io.github.dra4j.resourceapi.FeatureGates;
import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.internal.device.DeviceFieldRules;
import io.github.dra4j.resourceapi.ResourceLimits;
import io.github.dra4j.resourceapi.internal.field.Collections;
import io.github.dra4j.resourceapi.internal.field.Errors;
import io.github.dra4j.resourceapi.internal.field.FieldPath;
import io.github.dra4j.resourceapi.internal.field.SemanticEquality;
import io.github.dra4j.resourceapi.internal.meta.CoreRules;
import io.github.dra4j.resourceapi.internal.meta.ObjectMetaRules;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * kube-apiserver's validation of a ResourceSlice as Kubernetes 1.36 does it (ValidateResourceSlice,
 * ValidateResourceSliceUpdate): the metadata, then the spec with its driver, pool, node selection,
 * devices and shared counters. Errors carry the server's field paths, types and messages.
 * Stateless.
 */
public final class ResourceSliceValidation {

  private static final FieldPath METADATA = FieldPath.root("metadata");
  private static final FieldPath SPEC = FieldPath.root("spec");
  private static final String ONE_OF = "exactly one of `nodeName`, `nodeSelector`, `allNodes`, "
      + "`perDeviceNodeSelection` is required";

  private ResourceSliceValidation() {}

  /**
   * Validates a ResourceSlice being created.
   *
   * @param slice the slice (fabric8's v1 model; other versions converted to it first)
   * @param gates the server's feature gates (no rule of Kubernetes 1.36 reads them; fields behind
   *     gates that are off are dropped before validation)
   * @return the errors, empty if the slice is valid
   */
  public static List<FieldError> validate(ResourceSlice slice, FeatureGates gates) {
    Objects.requireNonNull(slice, "slice");
    List<FieldError> errors = new ArrayList<>(ObjectMetaRules.objectMeta(slice.getMetadata(),
        false, ObjectMetaRules.NameFormat.DNS_SUBDOMAIN, METADATA));
    errors.addAll(spec(spec(slice), null, SPEC));
    return errors;
  }

  /**
   * Validates an update of a ResourceSlice: what may not change in the metadata, the pool name,
   * driver and node name, which may not change at all, and the rules of the new spec (taints of a
   * device that are unchanged from the stored device are not checked again).
   *
   * @param slice the new slice
   * @param old the stored slice
   * @param gates the server's feature gates
   * @return the errors, empty if the update is valid
   */
  public static List<FieldError> validateUpdate(ResourceSlice slice, ResourceSlice old,
      FeatureGates gates) {
    Objects.requireNonNull(slice, "slice");
    Objects.requireNonNull(old, "old");
    List<FieldError> errors = new ArrayList<>(ObjectMetaRules.objectMetaUpdate(
        meta(slice.getMetadata()), meta(old.getMetadata()), METADATA));
    errors.addAll(spec(spec(slice), spec(old), SPEC));
    return errors;
  }

  // validateResourceSliceSpec
  private static List<FieldError> spec(ResourceSliceSpec spec, ResourceSliceSpec old,
      FieldPath path) {
    ResourcePool pool = spec.getPool() == null ? new ResourcePool() : spec.getPool();
    List<FieldError> errors = new ArrayList<>(DeviceFieldRules.driverName(
        emptyIfNull(spec.getDriver()), path.child("driver")));
    errors.addAll(pool(pool, path.child("pool")));
    if (old != null) {
      String oldPoolName = old.getPool() == null ? null : old.getPool().getName();
      errors.addAll(immutable(emptyIfNull(pool.getName()), emptyIfNull(oldPoolName),
          path.child("pool", "name")));
      errors.addAll(immutable(emptyIfNull(spec.getDriver()), emptyIfNull(old.getDriver()),
          path.child("driver")));
      errors.addAll(immutable(spec.getNodeName(), old.getNodeName(), path.child("nodeName")));
    }
    errors.addAll(nodeSelection(spec, path));
    if (present(spec.getSharedCounters()) && present(spec.getDevices())) {
      // Fabric8 cannot tell an empty list from an absent one; the server also refuses
      // "devices: []" beside shared counters (and the other way round).
      errors.add(Errors.invalid(path, "", "only one of `sharedCounters` or `devices` is allowed"));
    }
    int maxDevices = advancedFeatures(spec)
        ? ResourceLimits.SLICE_MAX_DEVICES_WITH_ADVANCED_FEATURES
        : ResourceLimits.SLICE_MAX_DEVICES;
    errors.addAll(Collections.set(spec.getDevices(), maxDevices,
        (device, devicePath) -> DeviceValidation.device(device, lookupDevice(old, device),
            spec.getPerDeviceNodeSelection(), devicePath),
        device -> device == null ? "" : emptyIfNull(device.getName()), path.child("devices")));
    errors.addAll(CounterValidation.counterSets(spec.getSharedCounters(),
        path.child("sharedCounters")));
    errors.addAll(LaterSliceFieldsValidation.partitionTypeAttribute(spec, path));
    errors.addAll(LaterSliceFieldsValidation.skipNodeOperations(spec.getSkipNodeOperations(),
        path.child("skipNodeOperations")));
    return errors;
  }

  // validateResourcePool
  private static List<FieldError> pool(ResourcePool pool, FieldPath path) {
    List<FieldError> errors = new ArrayList<>(DeviceFieldRules.poolName(
        emptyIfNull(pool.getName()), path.child("name")));
    long count = pool.getResourceSliceCount() == null ? 0 : pool.getResourceSliceCount();
    if (count <= 0) {
      errors.add(Errors.invalid(path.child("resourceSliceCount"), count,
          "must be greater than zero"));
    }
    long generation = pool.getGeneration() == null ? 0 : pool.getGeneration();
    if (generation < 0) {
      errors.add(Errors.invalid(path.child("generation"), generation,
          "must be greater than or equal to zero"));
    }
    return errors;
  }

  // nodeName, nodeSelector, allNodes, perDeviceNodeSelection: exactly one of them.
  private static List<FieldError> nodeSelection(ResourceSliceSpec spec, FieldPath path) {
    List<FieldError> errors = new ArrayList<>();
    List<String> set = new ArrayList<>();
    if (spec.getNodeName() != null) {
      if (spec.getNodeName().isEmpty()) {
        errors.add(Errors.invalid(path.child("nodeName"), "",
            "must be either unset or set to a non-empty string"));
      } else {
        set.add("`nodeName`");
        errors.addAll(CoreRules.nodeName(spec.getNodeName(), path.child("nodeName")));
      }
    }
    if (spec.getNodeSelector() != null) {
      set.add("`nodeSelector`");
      errors.addAll(CoreRules.nodeSelector(spec.getNodeSelector(), path.child("nodeSelector")));
      List<?> terms = spec.getNodeSelector().getNodeSelectorTerms();
      if (terms == null || terms.size() != 1) {
        errors.add(Errors.invalid(path.child("nodeSelector", "nodeSelectorTerms"),
            GoSyntax.nodeSelectorTerms(spec.getNodeSelector().getNodeSelectorTerms()),
            "must have exactly one node selector term"));
      }
    }
    if (spec.getAllNodes() != null) {
      if (spec.getAllNodes()) {
        set.add("`allNodes`");
      } else {
        errors.add(Errors.invalid(path.child("allNodes"), false,
            "must be either unset or set to true"));
      }
    }
    if (spec.getPerDeviceNodeSelection() != null) {
      if (spec.getPerDeviceNodeSelection()) {
        set.add("`perDeviceNodeSelection`");
      } else {
        errors.add(Errors.invalid(path.child("perDeviceNodeSelection"), false,
            "must be either unset or set to true"));
      }
    }
    if (set.isEmpty()) {
      errors.add(Errors.required(path, ONE_OF));
    } else if (set.size() > 1) {
      errors.add(Errors.invalid(path, "{" + String.join(", ", set) + "}",
          ONE_OF + ", but multiple fields are set"));
    }
    return errors;
  }

  // Taints, counter consumptions or list attributes on any device lower the device limit.
  private static boolean advancedFeatures(ResourceSliceSpec spec) {
    if (spec.getDevices() == null) {
      return false;
    }
    for (Device device : spec.getDevices()) {
      if (device == null) {
        continue;
      }
      if (present(device.getTaints()) || present(device.getConsumesCounters())) {
        return true;
      }
      if (device.getAttributes() != null
          && device.getAttributes().values().stream().anyMatch(AttributeValidation::hasList)) {
        return true;
      }
    }
    return false;
  }

  private static Device lookupDevice(ResourceSliceSpec old, Device device) {
    if (old == null || old.getDevices() == null || device == null) {
      return null;
    }
    String name = emptyIfNull(device.getName());
    for (Device candidate : old.getDevices()) {
      if (candidate != null && name.equals(emptyIfNull(candidate.getName()))) {
        return candidate;
      }
    }
    return null;
  }

  private static List<FieldError> immutable(String value, String old, FieldPath path) {
    return SemanticEquality.immutable(value, old, () -> value, path);
  }

  private static ResourceSliceSpec spec(ResourceSlice slice) {
    return slice.getSpec() == null ? new ResourceSliceSpec() : slice.getSpec();
  }

  private static ObjectMeta meta(ObjectMeta meta) {
    return meta == null ? new ObjectMeta() : meta;
  }

  private static boolean present(List<?> list) {
    return list != null && !list.isEmpty();
  }

  private static String emptyIfNull(String value) {
    return value == null ? "" : value;
  }
}
