package io.github.dra4j.resourceapi.internal.strategy;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceSpec;
import io.github.dra4j.resourceapi.FeatureGates;
import io.github.dra4j.resourceapi.internal.field.GoValues;
import io.github.dra4j.resourceapi.internal.field.SemanticEquality;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * {@code pkg/registry/resource/resourceslice/strategy.go} (Kubernetes 1.36). Cluster-scoped, no
 * status. Objects are changed in place.
 *
 * <p>Validation: create {@code ValidateResourceSlice}; update {@code ValidateResourceSliceUpdate}
 * (which validates the new slice too). Declarative validation runs after both in shadow mode
 * only (logged, not returned) in 1.36.
 */
public final class ResourceSliceStrategy {

  /**
   * A 1.36 device field that the fabric8 8 model does not have (1.37 reshaped it as {@code
   * nodeAllocatableResources}), so it arrives in the device's additional properties.
   */
  public static final String NODE_ALLOCATABLE_RESOURCE_MAPPINGS = "nodeAllocatableResourceMappings";

  private ResourceSliceStrategy() {}

  /**
   * Prepares a new slice: generation 1, then the fields of disabled gates dropped.
   *
   * @param slice the slice, changed in place
   * @param gates the server's gates
   */
  public static void prepareForCreate(ResourceSlice slice, FeatureGates gates) {
    MetaUpdates.firstGeneration(slice);
    dropDisabledFields(slice, null, gates);
  }

  /**
   * Prepares an update: the generation is the stored one, incremented when the spec changed
   * (compared BEFORE dropping fields, as 1.36 does: sending a disabled field alone still bumps
   * it), then the fields of disabled gates dropped unless the stored slice uses them.
   *
   * @param slice the new slice, changed in place
   * @param old the stored slice
   * @param gates the server's gates
   */
  public static void prepareForUpdate(ResourceSlice slice, ResourceSlice old,
      FeatureGates gates) {
    MetaUpdates.nextGeneration(slice, old, !SemanticEquality.equal(slice.getSpec(),
        old.getSpec()));
    dropDisabledFields(slice, old, gates);
  }

  /**
   * Returns the warnings of a create: a driver name with upper-case characters (allowed, but
   * driver names are compared literally).
   *
   * @param slice the slice being created
   * @return the warnings, possibly empty
   */
  public static List<String> warningsOnCreate(ResourceSlice slice) {
    return driverWarnings(slice);
  }

  /**
   * Returns the warnings of an update, as on create.
   *
   * @param slice the new slice
   * @param old the stored slice
   * @return the warnings, possibly empty
   */
  public static List<String> warningsOnUpdate(ResourceSlice slice, ResourceSlice old) {
    return driverWarnings(slice);
  }

  private static List<String> driverWarnings(ResourceSlice slice) {
    String driver = slice.getSpec() == null ? null : slice.getSpec().getDriver();
    if (driver == null || driver.equals(driver.toLowerCase(Locale.ROOT))) {
      return List.of();
    }
    return List.of("spec.driver: driver names should be lowercase; " + GoValues.quote(driver)
        + " contains uppercase characters");
  }

  static void dropDisabledFields(ResourceSlice slice, ResourceSlice old, FeatureGates gates) {
    ResourceSliceSpec spec = slice.getSpec();
    if (spec == null) {
      return;
    }
    if (!gates.enabled(FeatureGates.DRA_DEVICE_TAINTS)
        && !anyDevice(old, d -> !isEmpty(d.getTaints()))) {
      devices(spec).forEach(d -> d.setTaints(new ArrayList<>()));
    }
    if (!gates.enabled(FeatureGates.DRA_PARTITIONABLE_DEVICES) && !partitionableInUse(old)) {
      spec.setSharedCounters(new ArrayList<>());
      spec.setPerDeviceNodeSelection(null);
      for (Device device : devices(spec)) {
        device.setConsumesCounters(new ArrayList<>());
        device.setNodeName(null);
        device.setNodeSelector(null);
        device.setAllNodes(null);
      }
    }
    boolean bindingConditions = gates.enabled(FeatureGates.DRA_DEVICE_BINDING_CONDITIONS)
        && gates.enabled(FeatureGates.DRA_RESOURCE_CLAIM_DEVICE_STATUS);
    if (!bindingConditions && !anyDevice(old, ResourceSliceStrategy::usesBindingConditions)) {
      for (Device device : devices(spec)) {
        device.setBindingConditions(new ArrayList<>());
        device.setBindingFailureConditions(new ArrayList<>());
        device.setBindsToNode(null);
      }
    }
    if (!gates.enabled(FeatureGates.DRA_CONSUMABLE_CAPACITY)
        && !anyDevice(old, ResourceSliceStrategy::usesConsumableCapacity)) {
      for (Device device : devices(spec)) {
        device.setAllowMultipleAllocations(null);
        if (device.getCapacity() != null) {
          device.getCapacity().values().forEach(c -> c.setRequestPolicy(null));
        }
      }
    }
    // RECONSTRUCTED (1.36 source not seen): the list values of attributes follow the usual
    // rule of a disabled alpha field.
    if (!gates.enabled(FeatureGates.DRA_LIST_TYPE_ATTRIBUTES)
        && !anyDevice(old, ResourceSliceStrategy::usesListAttributes)) {
      for (Device device : devices(spec)) {
        attributes(device).forEach(ResourceSliceStrategy::dropLists);
      }
    }
    if (!gates.enabled(FeatureGates.DRA_NODE_ALLOCATABLE_RESOURCES)
        && !anyDevice(old, d -> d.getAdditionalProperties() != null
            && d.getAdditionalProperties().containsKey(NODE_ALLOCATABLE_RESOURCE_MAPPINGS))) {
      for (Device device : devices(spec)) {
        if (device.getAdditionalProperties() != null) {
          device.getAdditionalProperties().remove(NODE_ALLOCATABLE_RESOURCE_MAPPINGS);
        }
      }
    }
  }

  private static boolean partitionableInUse(ResourceSlice old) {
    if (old == null || old.getSpec() == null) {
      return false;
    }
    ResourceSliceSpec spec = old.getSpec();
    return !isEmpty(spec.getSharedCounters()) || spec.getPerDeviceNodeSelection() != null
        || anyDevice(old, d -> !isEmpty(d.getConsumesCounters()) || d.getNodeName() != null
            || d.getNodeSelector() != null || d.getAllNodes() != null);
  }

  private static boolean usesBindingConditions(Device device) {
    return !isEmpty(device.getBindingConditions())
        || !isEmpty(device.getBindingFailureConditions()) || device.getBindsToNode() != null;
  }

  private static boolean usesConsumableCapacity(Device device) {
    if (device.getAllowMultipleAllocations() != null) {
      return true;
    }
    return device.getCapacity() != null && device.getCapacity().values().stream()
        .anyMatch(c -> c != null && c.getRequestPolicy() != null);
  }

  private static boolean usesListAttributes(Device device) {
    return attributes(device).stream().anyMatch(a -> !isEmpty(a.getBools())
        || !isEmpty(a.getInts()) || !isEmpty(a.getStrings()) || !isEmpty(a.getVersions()));
  }

  private static void dropLists(DeviceAttribute attribute) {
    attribute.setBools(new ArrayList<>());
    attribute.setInts(new ArrayList<>());
    attribute.setStrings(new ArrayList<>());
    attribute.setVersions(new ArrayList<>());
  }

  private static List<DeviceAttribute> attributes(Device device) {
    if (device.getAttributes() == null) {
      return List.of();
    }
    return device.getAttributes().values().stream().filter(a -> a != null).toList();
  }

  private static boolean anyDevice(ResourceSlice slice, Predicate<Device> test) {
    if (slice == null || slice.getSpec() == null) {
      return false;
    }
    return devices(slice.getSpec()).stream().anyMatch(test);
  }

  private static List<Device> devices(ResourceSliceSpec spec) {
    if (spec.getDevices() == null) {
      return List.of();
    }
    return spec.getDevices().stream().filter(d -> d != null).toList();
  }

  private static boolean isEmpty(List<?> list) {
    return list == null || list.isEmpty();
  }
}
