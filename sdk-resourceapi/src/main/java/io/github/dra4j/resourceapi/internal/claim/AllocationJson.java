package io.github.dra4j.resourceapi.internal.claim;

import static io.github.dra4j.resourceapi.internal.device.GoStructs.list;
import static io.github.dra4j.resourceapi.internal.device.GoStructs.struct;
import static io.github.dra4j.resourceapi.internal.device.GoStructs.text;

import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.github.dra4j.resourceapi.internal.device.GoStructs;
import io.github.dra4j.resourceapi.internal.field.GoValues;
import java.util.function.Function;

/**
 * Prints an allocation as the API server prints the refused value of {@code status.allocation:
 * Invalid value: ...: field is immutable}: {@code json.Marshal} of its internal {@code
 * resource.AllocationResult} (see {@link GoStructs}), with Kubernetes 1.36's fields. Stateless.
 */
final class AllocationJson {

  private AllocationJson() {}

  /**
   * Prints an allocation.
   *
   * @param allocation the allocation, not null
   * @return the printed value, to be shown as it is
   */
  static GoValues.Raw print(AllocationResult allocation) {
    return GoValues.json(struct(
        "Devices", devices(allocation.getDevices()),
        "NodeSelector", GoStructs.nodeSelector(allocation.getNodeSelector()),
        "AllocationTimestamp", GoStructs.timestamp(allocation.getAllocationTimestamp())));
  }

  private static GoValues.Struct devices(DeviceAllocationResult devices) {
    return struct(
        "Results", list(devices == null ? null : devices.getResults(), AllocationJson::result),
        "Config", list(devices == null ? null : devices.getConfig(), AllocationJson::config));
  }

  private static GoValues.Struct result(DeviceRequestAllocationResult result) {
    return struct(
        "Request", text(result.getRequest()),
        "Driver", text(result.getDriver()),
        "Pool", text(result.getPool()),
        "Device", text(result.getDevice()),
        "AdminAccess", result.getAdminAccess(),
        "Tolerations", list(result.getTolerations(), GoStructs::toleration),
        "BindingConditions", list(result.getBindingConditions(), Function.identity()),
        "BindingFailureConditions", list(result.getBindingFailureConditions(),
            Function.identity()),
        "ShareID", result.getShareID(),
        "ConsumedCapacity", GoStructs.quantities(result.getConsumedCapacity()));
  }

  /** The embedded DeviceConfiguration has no name of its own: its Opaque field is promoted. */
  private static GoValues.Struct config(DeviceAllocationConfiguration config) {
    return struct(
        "Source", text(config.getSource()),
        "Requests", list(config.getRequests(), Function.identity()),
        "Opaque", GoStructs.opaque(config.getOpaque()));
  }
}
