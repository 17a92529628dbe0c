package io.github.dra4j.resourceapi;

import io.github.dra4j.core.name.NameRules;

/**
 * The size limits of {@code resource.k8s.io} (Kubernetes 1.36, the constants of {@code
 * k8s.io/api/resource/v1/types.go} and {@code pkg/apis/resource/types.go}), in one place. None of
 * these values changed in 1.37; 1.37 adds DeviceClaimDerivedAttributeCELMaxCost (for derived
 * attributes, not in 1.36) and a later release DeviceCompatibilityGroupsMaxSize = 2.
 */
public final class ResourceLimits {

  /** Devices in one ResourceSlice. */
  public static final int SLICE_MAX_DEVICES = 128;
  /**
   * Devices in one ResourceSlice when a device has taints, consumes counters or list attributes.
   */
  public static final int SLICE_MAX_DEVICES_WITH_ADVANCED_FEATURES = 64;
  /** Counter sets in one ResourceSlice. */
  public static final int SLICE_MAX_COUNTER_SETS = 8;
  /** Counters in one counter set. */
  public static final int SLICE_MAX_COUNTERS_PER_COUNTER_SET = 32;
  /** Counter consumptions of one device. */
  public static final int SLICE_MAX_COUNTER_CONSUMPTIONS_PER_DEVICE = 2;
  /** Counters in one counter consumption. */
  public static final int SLICE_MAX_COUNTERS_PER_CONSUMPTION = 32;
  /** Attributes and capacities of one device together. */
  public static final int SLICE_MAX_ATTRIBUTES_AND_CAPACITIES_PER_DEVICE = 32;
  /** Attribute values of one device, list items counted one by one. */
  public static final int SLICE_MAX_ATTRIBUTE_VALUES_PER_DEVICE = 48;
  /** Taints of one device. */
  public static final int DEVICE_TAINTS_MAX = 16;
  /** Tolerations of one request. */
  public static final int DEVICE_TOLERATIONS_MAX = 16;
  /** Length of the domain of a qualified name. */
  public static final int DEVICE_MAX_DOMAIN_LENGTH = NameRules.DOMAIN_MAX;
  /** Length of the identifier of a qualified name. */
  public static final int DEVICE_MAX_ID_LENGTH = NameRules.IDENTIFIER_MAX;
  /** Length of a string or version attribute value. */
  public static final int DEVICE_ATTRIBUTE_MAX_VALUE_LENGTH = 64;
  /** Length of a driver name (ValidateCSIDriverName; DriverNameMaxLength in v1). */
  public static final int DRIVER_NAME_MAX_LENGTH = NameRules.DRIVER_NAME_MAX;
  /** Length of a pool name. */
  public static final int POOL_NAME_MAX_LENGTH = NameRules.DNS_SUBDOMAIN_MAX;
  /** Binding conditions of one device or result. */
  public static final int BINDING_CONDITIONS_MAX = 4;
  /** Binding failure conditions of one device or result. */
  public static final int BINDING_FAILURE_CONDITIONS_MAX = 4;
  /** Allocation results of one claim. */
  public static final int ALLOCATION_RESULTS_MAX = 32;
  /** Requests of one claim. */
  public static final int DEVICE_REQUESTS_MAX = ALLOCATION_RESULTS_MAX;
  /** Constraints of one claim. */
  public static final int DEVICE_CONSTRAINTS_MAX = 32;
  /** Configurations of one claim or class. */
  public static final int DEVICE_CONFIG_MAX = 32;
  /** Selectors of one request or class. */
  public static final int DEVICE_SELECTORS_MAX = 32;
  /** Sub-requests of one {@code firstAvailable} request. */
  public static final int FIRST_AVAILABLE_MAX = 8;
  /** Length of a CEL selector expression. */
  public static final int CEL_SELECTOR_MAX_LENGTH = 10 * 1024;
  /** Estimated cost of a CEL selector expression. */
  public static final long CEL_SELECTOR_MAX_COST = 1_000_000;
  /** Length of opaque configuration parameters as JSON. */
  public static final int OPAQUE_PARAMETERS_MAX_LENGTH = 10 * 1024;
  /** Consumers in {@code status.reservedFor}. */
  public static final int RESERVED_FOR_MAX = 256;
  /** Conditions of one device status. */
  public static final int DEVICE_STATUS_MAX_CONDITIONS = 8;
  /** Length of the data of one device status as JSON. */
  public static final int DEVICE_STATUS_DATA_MAX_LENGTH = 10 * 1024;
  /** Length of a network interface name. */
  public static final int NETWORK_INTERFACE_NAME_MAX_LENGTH = 256;
  /** Length of a hardware address. */
  public static final int NETWORK_HARDWARE_ADDRESS_MAX_LENGTH = 128;
  /** IP addresses of one network device. */
  public static final int NETWORK_MAX_IPS = 16;
  /** Discrete values of a capacity request policy. */
  public static final int CAPACITY_REQUEST_POLICY_MAX_VALUES = 10;
  /** Conditions of a DeviceTaintRule's status. */
  public static final int TAINT_RULE_STATUS_MAX_CONDITIONS = 8;

  private ResourceLimits() {}
}
