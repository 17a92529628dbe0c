package io.github.dra4j.resourceapi.internal.slice;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import io.fabric8.kubernetes.api.model.resource.v1.NodeAllocatableMapping;
import io.fabric8.kubernetes.api.model.resource.v1.NodeAllocatableOverhead;
import io.fabric8.kubernetes.api.model.resource.v1.NodeAllocatableResource;
import io.github.dra4j.core.quantity.QuantityValue;
import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.internal.field.Errors;
import io.github.dra4j.resourceapi.internal.field.FieldPath;
import io.github.dra4j.resourceapi.internal.field.GoValues;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The rules of a device's {@code nodeAllocatableResources} (validateNodeAllocatableResources) in
 * the shape fabric8's v1 model has, which is that of Kubernetes 1.37 (DRANodeAllocatableResources
 * "alpha 2"). Kubernetes 1.36 had an earlier alpha field, {@code nodeAllocatableResourceMappings},
 * behind the same gate, off by default; the field checked here did not exist in 1.36 and is
 * dropped on write, so these rules only matter once that changes. Stateless.
 */
final class NodeAllocatableValidation {

  private static final String HUGE_PAGES_PREFIX = "hugepages-";

  private NodeAllocatableValidation() {}

  /**
   * validateNodeAllocatableResources.
   *
   * @param resources the device's resources by node resource name, may be null
   * @param capacities the device's capacities, may be null
   * @param path {@code spec.devices[i].nodeAllocatableResources}
   * @return the errors
   */
  static List<FieldError> resources(Map<String, NodeAllocatableResource> resources,
      Map<String, DeviceCapacity> capacities, FieldPath path) {
    List<FieldError> errors = new ArrayList<>();
    if (resources == null) {
      return errors;
    }
    resources.forEach((name, resource) -> {
      FieldPath keyPath = path.key(name);
      if (!isNodeAllocatableResourceName(name)) {
        errors.add(Errors.invalid(keyPath, GoValues.typed(name),
            "must be a node allocatable resource name"));
      }
      NodeAllocatableResource value = resource == null ? new NodeAllocatableResource() : resource;
      if (value.getMapping() == null && value.getOverhead() == null) {
        errors.add(Errors.required(keyPath, "at least one of mapping or overhead must be set"));
      }
      if (value.getMapping() != null) {
        errors.addAll(mapping(value.getMapping(), capacities, keyPath.child("mapping")));
      }
      if (value.getOverhead() != null) {
        errors.addAll(overhead(value.getOverhead(), keyPath.child("overhead")));
      }
    });
    return errors;
  }

  // The node resources a device can stand for: CPU, memory and huge pages.
  private static boolean isNodeAllocatableResourceName(String name) {
    return name.equals("cpu") || name.equals("memory") || name.startsWith(HUGE_PAGES_PREFIX);
  }

  private static List<FieldError> mapping(NodeAllocatableMapping mapping,
      Map<String, DeviceCapacity> capacities, FieldPath path) {
    List<FieldError> errors = new ArrayList<>();
    String capacityKey = mapping.getCapacityKey();
    if (capacityKey != null) {
      if (capacityKey.isEmpty()) {
        errors.add(Errors.invalid(path.child("capacityKey"), "",
            "capacityKey must not be an empty string"));
      } else if (capacities == null || !capacities.containsKey(capacityKey)) {
        errors.add(Errors.notFound(path.child("capacityKey"), GoValues.typed(capacityKey)));
      }
      QuantityValue multiplier = GoQuantity.of(mapping.getCapacityMultiplier());
      if (multiplier == null) {
        errors.add(Errors.required(path.child("capacityMultiplier"),
            "capacityMultiplier is required when capacityKey is set"));
      } else if (GoQuantity.notPositive(multiplier)) {
        errors.add(Errors.invalid(path.child("capacityMultiplier"), GoQuantity.string(multiplier),
            "must be positive"));
      }
    }
    QuantityValue deviceMultiplier = GoQuantity.of(mapping.getDeviceMultiplier());
    if (deviceMultiplier != null && GoQuantity.notPositive(deviceMultiplier)) {
      errors.add(Errors.invalid(path.child("deviceMultiplier"), GoQuantity.string(deviceMultiplier),
          "must be positive"));
    }
    if (mapping.getCapacityMultiplier() != null && capacityKey == null) {
      errors.add(Errors.required(path.child("capacityKey"),
          "capacityKey is required when capacityMultiplier is set"));
    }
    return errors;
  }

  private static List<FieldError> overhead(NodeAllocatableOverhead overhead, FieldPath path) {
    List<FieldError> errors = new ArrayList<>();
    QuantityValue perPod = GoQuantity.of(overhead.getPerPod());
    QuantityValue perContainer = GoQuantity.of(overhead.getPerContainer());
    if (perPod == null && perContainer == null) {
      errors.add(Errors.invalid(path, "", "at least one of perPod or perContainer must be set"));
      return errors;
    }
    if (perPod != null && perPod.signum() < 0) {
      errors.add(Errors.invalid(path.child("perPod"), GoQuantity.string(perPod),
          "must be non-negative"));
    }
    if (perContainer != null && perContainer.signum() < 0) {
      errors.add(Errors.invalid(path.child("perContainer"), GoQuantity.string(perContainer),
          "must be non-negative"));
    }
    return errors;
  }
}
