package io.github.dra4j.structured;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceToleration;
import io.github.dra4j.core.quantity.QuantityValue;
import java.util.List;
import java.util.Map;

/**
 * A validated request (or one {@code firstAvailable} subrequest) ready for the search: its class,
 * selectors, tolerations, capacity requests and how many devices it needs; for {@code All} mode
 * the precomputed device list. Immutable.
 *
 * @param ordinal a number unique among the plans of one attempt, for caches
 * @param claimIndex index of the claim in the attempt
 * @param baseName the request's name
 * @param subName the subrequest's name, or null for a plain request
 * @param deviceClass the DeviceClass
 * @param selectors the request's CEL selector expressions
 * @param adminAccess whether the request asks for admin access
 * @param tolerations the request's tolerations
 * @param capacityRequests the request's capacity requests
 * @param numDevices how many devices are needed
 * @param allDevices for {@code All} mode the devices to take, otherwise null
 */
record RequestPlan(
    int ordinal,
    int claimIndex,
    String baseName,
    String subName,
    DeviceClass deviceClass,
    List<String> selectors,
    boolean adminAccess,
    List<DeviceToleration> tolerations,
    Map<String, QuantityValue> capacityRequests,
    int numDevices,
    List<PoolDevice> allDevices) {

  /** Returns the request name used in results: {@code request} or {@code request/subrequest}. */
  String resultName() {
    return subName == null ? baseName : baseName + "/" + subName;
  }

  /** Returns the DeviceClass name. */
  String className() {
    return deviceClass.getMetadata().getName();
  }

  /** Returns a copy with the {@code All} device list set. */
  RequestPlan withAllDevices(List<PoolDevice> devices) {
    return new RequestPlan(ordinal, claimIndex, baseName, subName, deviceClass, selectors,
        adminAccess, tolerations, capacityRequests, devices.size(), List.copyOf(devices));
  }
}
