package io.github.dra4j.cel;

import java.util.List;
import java.util.Map;

/**
 * The largest sizes of what the {@code device} variable holds, from the API limits, as Kubernetes
 * declares them for the cost estimator ({@code k8s.io/dynamic-resource-allocation/cel}): the
 * driver name at most 63 characters, at most 32 attribute domains each with at most 32 attributes,
 * domains of at most 63 and identifiers of at most 32 characters, attribute values of at most 64
 * (the longest string value; 48, the most values of a list attribute, is less), the same maps for
 * capacity (quantities have no size), and {@code allowMultipleAllocations} of size 1. Kubernetes
 * uses these sizes whatever the feature gates. Stateless.
 */
final class DeviceSizes implements CostModel {

  /** The one instance. */
  static final DeviceSizes INSTANCE = new DeviceSizes();

  /** {@code resource.DriverNameMaxLength}. */
  static final long DRIVER_NAME_MAX_LENGTH = 63;
  /** {@code resource.DeviceMaxDomainLength}. */
  static final long DOMAIN_MAX_LENGTH = 63;
  /** {@code resource.DeviceMaxIDLength}. */
  static final long ID_MAX_LENGTH = 32;
  /** {@code resource.DeviceAttributeMaxValueLength}. */
  static final long ATTRIBUTE_MAX_VALUE_LENGTH = 64;
  /** {@code resource.ResourceSliceMaxAttributesAndCapacitiesPerDevice}. */
  static final long MAX_ATTRIBUTES_AND_CAPACITIES = 32;

  /** A declared type: its largest size and, for maps and objects, what it holds. */
  private record Decl(long maxElements, Decl key, Decl element, Map<String, Decl> fields) {
    static Decl leaf(long maxElements) {
      return new Decl(maxElements, null, null, Map.of());
    }

    static Decl map(Decl key, Decl element, long maxElements) {
      return new Decl(maxElements, key, element, Map.of());
    }
  }

  private static final Decl ATTRIBUTE = Decl.leaf(
      Math.max(ATTRIBUTE_MAX_VALUE_LENGTH, KubernetesCallCosts.MAX_ATTRIBUTE_VALUES));
  private static final Decl DEVICE;

  static {
    Decl domain = Decl.leaf(DOMAIN_MAX_LENGTH);
    Decl id = Decl.leaf(ID_MAX_LENGTH);
    Decl attributes = Decl.map(domain,
        Decl.map(id, ATTRIBUTE, MAX_ATTRIBUTES_AND_CAPACITIES), MAX_ATTRIBUTES_AND_CAPACITIES);
    Decl capacity = Decl.map(domain,
        Decl.map(id, Decl.leaf(0), MAX_ATTRIBUTES_AND_CAPACITIES), MAX_ATTRIBUTES_AND_CAPACITIES);
    DEVICE = new Decl(0, null, null, Map.of(
        DeviceType.FIELD_DRIVER, Decl.leaf(DRIVER_NAME_MAX_LENGTH),
        DeviceType.FIELD_ATTRIBUTES, attributes,
        DeviceType.FIELD_CAPACITY, capacity,
        DeviceType.FIELD_ALLOW_MULTIPLE, Decl.leaf(1)));
  }

  private DeviceSizes() {}

  // ATTRIBUTE is a marker: the question is whether a declaration is that one, not whether it
  // holds the same figures (a record's equals would say so for any leaf of the same size).
  @SuppressWarnings("ReferenceEquality")
  @Override
  public CostRange estimateSize(CostNode node) {
    List<String> path = node.path();
    if (path == null || path.isEmpty() || !path.get(0).equals(DeviceSelectorEnvironment.VARIABLE)) {
      return null;
    }
    Decl current = DEVICE;
    for (String name : path.subList(1, path.size())) {
      switch (name) {
        case "@items", "@values" -> current = current.element;
        case "@keys" -> current = current.key;
        default -> {
          Decl field = current.fields.get(name);
          // any name selects an attribute in a map of attributes
          current = field != null ? field : current.element == ATTRIBUTE ? ATTRIBUTE : null;
        }
      }
      if (current == null) {
        return null;
      }
    }
    return new CostRange(0, current.maxElements);
  }

  @Override
  public CallCost estimateCall(
      String function, String overloadId, CostNode target, List<CostNode> args) {
    return null;
  }
}
