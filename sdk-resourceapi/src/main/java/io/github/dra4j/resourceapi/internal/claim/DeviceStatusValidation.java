package io.github.dra4j.resourceapi.internal.claim;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.resource.v1.AllocatedDeviceStatus;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.NetworkDeviceData;
import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.internal.device.DeviceFieldRules;
import io.github.dra4j.resourceapi.ResourceLimits;
import io.github.dra4j.resourceapi.internal.field.Collections;
import io.github.dra4j.resourceapi.internal.field.Errors;
import io.github.dra4j.resourceapi.internal.field.FieldPath;
import io.github.dra4j.resourceapi.internal.field.Json;
import io.github.dra4j.resourceapi.internal.meta.CoreRules;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The rules of {@code status.devices}, the entries that drivers write about the devices they
 * prepared (validateDeviceStatus and validateNetworkDeviceData of Kubernetes 1.36): names, the
 * share ID, that the entry is about a device of the claim's allocation, no two entries about the
 * same device, conditions, opaque data and network data. Stateless.
 */
final class DeviceStatusValidation {

  private DeviceStatusValidation() {}

  /**
   * Checks the device status entries against the allocation they report on.
   *
   * @param devices {@code status.devices}, may be null
   * @param allocation {@code status.allocation} of the same update, null if none
   * @param path {@code status.devices}
   * @return the errors: each entry's, then one {@code Duplicate value} per repeated device
   */
  static List<FieldError> devices(List<AllocatedDeviceStatus> devices,
      AllocationResult allocation, FieldPath path) {
    Set<SharedDeviceId> allocated = allocatedDevices(allocation);
    return Collections.set(devices, -1, (device, itemPath) -> device(device, allocated, itemPath),
        status -> SharedDeviceId.of(status).printed(), path);
  }

  private static Set<SharedDeviceId> allocatedDevices(AllocationResult allocation) {
    Set<SharedDeviceId> allocated = new HashSet<>();
    if (allocation == null || allocation.getDevices() == null
        || allocation.getDevices().getResults() == null) {
      return allocated;
    }
    for (DeviceRequestAllocationResult result : allocation.getDevices().getResults()) {
      allocated.add(SharedDeviceId.of(result));
    }
    return allocated;
  }

  private static List<FieldError> device(AllocatedDeviceStatus device,
      Set<SharedDeviceId> allocated, FieldPath path) {
    List<FieldError> errors = new ArrayList<>();
    errors.addAll(DeviceFieldRules.driverName(nullToEmpty(device.getDriver()),
        path.child("driver")));
    errors.addAll(DeviceFieldRules.poolName(nullToEmpty(device.getPool()), path.child("pool")));
    errors.addAll(DeviceFieldRules.deviceName(nullToEmpty(device.getDevice()),
        path.child("device")));
    if (device.getShareID() != null) {
      errors.addAll(DeviceFieldRules.uid(device.getShareID(), path.child("shareID")));
    }
    SharedDeviceId id = SharedDeviceId.of(device);
    if (!allocated.contains(id)) {
      errors.add(Errors.invalid(path, id.printed(), "must be an allocated device in the claim"));
    }
    List<Condition> conditions = device.getConditions();
    if (conditions != null && conditions.size() > ResourceLimits.DEVICE_STATUS_MAX_CONDITIONS) {
      // Unlike most limits this one does not stop the conditions' own checks.
      errors.add(Errors.tooMany(path.child("conditions"), conditions.size(),
          ResourceLimits.DEVICE_STATUS_MAX_CONDITIONS));
    }
    errors.addAll(CoreRules.conditions(conditions, path.child("conditions")));
    if (device.getData() != null) {
      // Optional: only checked when present.
      errors.addAll(DeviceFieldRules.rawExtension(decoded(device.getData()), path.child("data"),
          false, ResourceLimits.DEVICE_STATUS_DATA_MAX_LENGTH));
    }
    errors.addAll(networkData(device.getNetworkData(), path.child("networkData")));
    return errors;
  }

  private static List<FieldError> networkData(NetworkDeviceData data, FieldPath path) {
    List<FieldError> errors = new ArrayList<>();
    if (data == null) {
      return errors;
    }
    if (utf8Length(data.getInterfaceName()) > ResourceLimits.NETWORK_INTERFACE_NAME_MAX_LENGTH) {
      errors.add(Errors.tooLong(path.child("interfaceName"),
          ResourceLimits.NETWORK_INTERFACE_NAME_MAX_LENGTH));
    }
    if (utf8Length(
        data.getHardwareAddress()) > ResourceLimits.NETWORK_HARDWARE_ADDRESS_MAX_LENGTH) {
      errors.add(Errors.tooLong(path.child("hardwareAddress"),
          ResourceLimits.NETWORK_HARDWARE_ADDRESS_MAX_LENGTH));
    }
    errors.addAll(Collections.set(data.getIps(), ResourceLimits.NETWORK_MAX_IPS,
        (ip, ipPath) -> CoreRules.interfaceAddress(nullToEmpty(ip), ipPath),
        DeviceStatusValidation::nullToEmpty, path.child("ips")));
    return errors;
  }

  // SHARED-CANDIDATE: DeviceFieldRules.rawExtension could take fabric8's wrappers itself (opaque
  // parameters arrive wrapped the same way).
  /** fabric8 decodes raw JSON into a RawExtension or a GenericKubernetesResource: back to JSON. */
  private static Object decoded(Object data) {
    return Json.plain(data);
  }

  private static int utf8Length(String value) {
    return value == null ? 0 : value.getBytes(StandardCharsets.UTF_8).length;
  }

  private static String nullToEmpty(String value) {
    return value == null ? "" : value;
  }
}
