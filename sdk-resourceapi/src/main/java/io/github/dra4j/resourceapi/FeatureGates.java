package io.github.dra4j.resourceapi;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * The feature gates of kube-apiserver that change what it accepts, defaults, drops or validates
 * for {@code resource.k8s.io}, with Kubernetes 1.36's defaults (the versioned specs of {@code
 * pkg/features}, as the server reports them in {@code --feature-gates} help). A field behind a
 * gate that is off is dropped on write unless the stored object already uses it, as the real
 * server does. Gates locked to their default (GA, and deprecated ones) cannot be changed, with the
 * server's message. Gates added after 1.36 do not exist here: {@link #enabled(String)} reports
 * them off and {@link #with(String, boolean)} refuses them as unrecognized. Immutable; {@code
 * with} returns a changed copy.
 */
public final class FeatureGates {

  // 1.36: GA, locked on. 1.37: GA, locked on (removed in 1.38). The whole API.
  /** The {@code resource.k8s.io} API itself (GA, locked on). */
  public static final String DYNAMIC_RESOURCE_ALLOCATION = "DynamicResourceAllocation";
  // 1.36: GA, locked on. 1.37: GA, locked on.
  /** Admin access to devices in use ({@code adminAccess} in requests and results). */
  public static final String DRA_ADMIN_ACCESS = "DRAAdminAccess";
  // 1.36: GA, default on, NOT locked. 1.37: GA, locked on.
  /** Prioritized lists of sub-requests ({@code firstAvailable}). */
  public static final String DRA_PRIORITIZED_LIST = "DRAPrioritizedList";
  // 1.36: beta, default on. 1.37: GA, locked on.
  /** Device status written by drivers ({@code status.devices}). */
  public static final String DRA_RESOURCE_CLAIM_DEVICE_STATUS = "DRAResourceClaimDeviceStatus";
  // 1.36: beta, default on. 1.37: GA, default on (not locked).
  /** Device taints in slices and tolerations in requests. */
  public static final String DRA_DEVICE_TAINTS = "DRADeviceTaints";
  // 1.36: beta, default OFF (its v1beta2 API is off by default). 1.37: GA, default on.
  /** DeviceTaintRule objects (served only when their API version is enabled). */
  public static final String DRA_DEVICE_TAINT_RULES = "DRADeviceTaintRules";
  // 1.36: beta, default on. 1.37: beta, default on.
  /** Per-device node selection and shared counters ({@code sharedCounters} and others). */
  public static final String DRA_PARTITIONABLE_DEVICES = "DRAPartitionableDevices";
  // 1.36: beta, default on. 1.37: beta, default on.
  /** Consumable capacity and multiple allocations of one device. */
  public static final String DRA_CONSUMABLE_CAPACITY = "DRAConsumableCapacity";
  // 1.36: beta, default on. 1.37: beta, default on.
  /** Binding conditions on devices and results (needs the device status gate too for slices). */
  public static final String DRA_DEVICE_BINDING_CONDITIONS = "DRADeviceBindingConditions";
  // 1.36: beta, default on. 1.37: GA, locked on.
  /** Extended resources backed by DeviceClasses ({@code extendedResourceName}). */
  public static final String DRA_EXTENDED_RESOURCE = "DRAExtendedResource";
  // 1.36: alpha, default off. 1.37: alpha, default off.
  /** List-type device attributes ({@code bools}, {@code ints}, {@code strings} ...). */
  public static final String DRA_LIST_TYPE_ATTRIBUTES = "DRAListTypeAttributes";
  // 1.36: alpha, default off (field nodeAllocatableResourceMappings). 1.37: alpha, default off
  // (field reshaped as nodeAllocatableResources).
  /** Node allocatable resources managed by DRA drivers. */
  public static final String DRA_NODE_ALLOCATABLE_RESOURCES = "DRANodeAllocatableResources";
  // 1.36: alpha, default off. 1.37: alpha, default off. Serves ResourcePoolStatusRequest.
  /** The ResourcePoolStatusRequest API ({@code v1alpha3}). */
  public static final String DRA_RESOURCE_POOL_STATUS = "DRAResourcePoolStatus";
  // 1.36: alpha, default off. 1.37: beta, default off.
  /** ResourceClaims reserved for and replicated across a whole PodGroup. */
  public static final String DRA_WORKLOAD_RESOURCE_CLAIMS = "DRAWorkloadResourceClaims";
  // 1.36: beta, default on. 1.37: beta, default on (not verified). Authorization only.
  /** Fine-grained authorization of ResourceClaim status updates. */
  public static final String DRA_RESOURCE_CLAIM_GRANULAR_STATUS_AUTHORIZATION = "DRAResourceClaimGranularStatusAuthorization";
  // 1.36: GA, locked on (beta on in 1.33-1.35). 1.37: GA, locked on.
  /**
   * Declarative validation runs. For {@code resource.k8s.io} in 1.36 it runs in shadow mode only
   * (its errors are compared with the hand-written ones and logged, never returned), so it changes
   * nothing these rules return; from 1.37 the kinds' strategies enforce it.
   */
  public static final String DECLARATIVE_VALIDATION = "DeclarativeValidation";
  // 1.36: beta, default on (new in 1.36). 1.37: beta, default on (not verified).
  /**
   * Declarative rules tagged {@code +k8s:beta} replace the hand-written errors they cover, but
   * only for kinds whose strategy enforces declarative validation: none of these kinds in 1.36
   * (from 1.37 all of them, with texts that differ from the hand-written ones in places).
   */
  public static final String DECLARATIVE_VALIDATION_BETA = "DeclarativeValidationBeta";
  // 1.36: deprecated, default off, no longer honored. 1.37: deprecated, locked off.
  /** Deprecated: replaced by {@link #DECLARATIVE_VALIDATION_BETA}; ignored by 1.36. */
  public static final String DECLARATIVE_VALIDATION_TAKEOVER = "DeclarativeValidationTakeover";

  /**
   * DRA gates added after Kubernetes 1.36 (1.37: DRADerivedAttributes,
   * DRADeviceCompatibilityGroups, DRAOptionalNodeOperations, DRAPartitionableDevicesType alpha;
   * DRAFractionalCapacityRange beta).
   * They do not exist in 1.36: reported off, and refused when set.
   */
  private static final Set<String> ADDED_AFTER_1_36 = Set.of("DRADerivedAttributes",
      "DRADeviceCompatibilityGroups", "DRAOptionalNodeOperations", "DRAPartitionableDevicesType",
      "DRAFractionalCapacityRange");

  private static final Map<String, Spec> KUBERNETES_1_36 = kubernetes136Specs();

  private final Map<String, Boolean> gates;

  private FeatureGates(Map<String, Boolean> gates) {
    this.gates = Collections.unmodifiableMap(new TreeMap<>(gates));
  }

  /**
   * Returns the gates as Kubernetes 1.36 sets them by default.
   *
   * @return the defaults
   */
  public static FeatureGates kubernetes136() {
    Map<String, Boolean> defaults = new LinkedHashMap<>();
    KUBERNETES_1_36.forEach((name, spec) -> defaults.put(name, spec.defaultValue()));
    return new FeatureGates(defaults);
  }

  /**
   * Returns a copy with one gate set.
   *
   * @param gate the gate's name, e.g. {@code DRAConsumableCapacity}
   * @param enabled whether it is on
   * @return the changed copy
   * @throws IllegalArgumentException for a gate 1.36 does not know ({@code unrecognized feature
   *     gate: X}, naming the known ones) or a locked gate set away from its default ({@code cannot
   *     set feature gate X to false, feature is locked to true}), worded as kube-apiserver does
   */
  public FeatureGates with(String gate, boolean enabled) {
    Objects.requireNonNull(gate, "gate");
    Spec spec = KUBERNETES_1_36.get(gate);
    if (spec == null) {
      String hint = ADDED_AFTER_1_36.contains(gate)
          ? " (added after Kubernetes 1.36)"
          : "; known gates: " + String.join(", ", gates.keySet());
      throw new IllegalArgumentException("unrecognized feature gate: " + gate + hint);
    }
    if (spec.locked() && spec.defaultValue() != enabled) {
      throw new IllegalArgumentException("cannot set feature gate " + gate + " to " + enabled
          + ", feature is locked to " + spec.defaultValue());
    }
    Map<String, Boolean> changed = new LinkedHashMap<>(gates);
    changed.put(gate, enabled);
    return new FeatureGates(changed);
  }

  /**
   * Parses gates in kube-apiserver's {@code --feature-gates} form and applies them to these.
   *
   * @param spec e.g. {@code DRAConsumableCapacity=true,DRADeviceTaints=false}; blank for none. The
   *     values are read like Go's {@code strconv.ParseBool} ({@code true}, {@code 1}, {@code t},
   *     {@code False}, ...)
   * @return the changed copy
   * @throws IllegalArgumentException for an entry without a value ({@code missing bool value for
   *     X}), a value that is not a bool ({@code invalid value of X=Y}), an unknown or locked gate
   */
  public FeatureGates withSpec(String spec) {
    FeatureGates result = this;
    if (spec == null || spec.isBlank()) {
      return result;
    }
    for (String entry : spec.split(",", -1)) {
      String trimmed = entry.trim();
      if (trimmed.isEmpty()) {
        continue;
      }
      int eq = trimmed.indexOf('=');
      if (eq < 0) {
        throw new IllegalArgumentException("missing bool value for " + trimmed);
      }
      String name = trimmed.substring(0, eq).trim();
      String value = trimmed.substring(eq + 1).trim();
      Boolean parsed = parseGoBool(value);
      if (parsed == null) {
        throw new IllegalArgumentException("invalid value of " + name + "=" + value
            + ", err: strconv.ParseBool: parsing \"" + value + "\": invalid syntax");
      }
      result = result.with(name, parsed);
    }
    return result;
  }

  /**
   * Tells whether a gate is on. A DRA gate added after 1.36 is reported off: 1.36 has none of
   * its behaviour.
   *
   * @param gate the gate's name
   * @return true if on
   * @throws IllegalArgumentException if the gate is unknown
   */
  public boolean enabled(String gate) {
    Boolean value = gates.get(gate);
    if (value == null) {
      if (ADDED_AFTER_1_36.contains(gate)) {
        return false;
      }
      throw new IllegalArgumentException("unrecognized feature gate: " + gate);
    }
    return value;
  }

  /**
   * Returns every 1.36 gate with its setting, by name.
   *
   * @return an unmodifiable map
   */
  public Map<String, Boolean> asMap() {
    return gates;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof FeatureGates that && that.gates.equals(gates);
  }

  @Override
  public int hashCode() {
    return gates.hashCode();
  }

  @Override
  public String toString() {
    StringBuilder out = new StringBuilder();
    gates.forEach((name, on) -> out.append(out.length() == 0 ? "" : ",").append(name).append('=')
        .append(on));
    return out.toString();
  }

  private static Boolean parseGoBool(String value) {
    return switch (value) {
      case "1", "t", "T", "TRUE", "true", "True" -> Boolean.TRUE;
      case "0", "f", "F", "FALSE", "false", "False" -> Boolean.FALSE;
      default -> null;
    };
  }

  /** A gate's 1.36 default and whether it is locked to it. */
  private record Spec(boolean defaultValue, boolean locked) {}

  private static Map<String, Spec> kubernetes136Specs() {
    Map<String, Spec> map = new LinkedHashMap<>();
    map.put(DYNAMIC_RESOURCE_ALLOCATION, new Spec(true, true));
    map.put(DRA_ADMIN_ACCESS, new Spec(true, true));
    map.put(DRA_PRIORITIZED_LIST, new Spec(true, false));
    map.put(DRA_RESOURCE_CLAIM_DEVICE_STATUS, new Spec(true, false));
    map.put(DRA_DEVICE_TAINTS, new Spec(true, false));
    map.put(DRA_DEVICE_TAINT_RULES, new Spec(false, false));
    map.put(DRA_PARTITIONABLE_DEVICES, new Spec(true, false));
    map.put(DRA_CONSUMABLE_CAPACITY, new Spec(true, false));
    map.put(DRA_DEVICE_BINDING_CONDITIONS, new Spec(true, false));
    map.put(DRA_EXTENDED_RESOURCE, new Spec(true, false));
    map.put(DRA_LIST_TYPE_ATTRIBUTES, new Spec(false, false));
    map.put(DRA_NODE_ALLOCATABLE_RESOURCES, new Spec(false, false));
    map.put(DRA_RESOURCE_POOL_STATUS, new Spec(false, false));
    map.put(DRA_WORKLOAD_RESOURCE_CLAIMS, new Spec(false, false));
    map.put(DRA_RESOURCE_CLAIM_GRANULAR_STATUS_AUTHORIZATION, new Spec(true, false));
    map.put(DECLARATIVE_VALIDATION, new Spec(true, true));
    map.put(DECLARATIVE_VALIDATION_BETA, new Spec(true, false));
    map.put(DECLARATIVE_VALIDATION_TAKEOVER, new Spec(false, false));
    return map;
  }
}
