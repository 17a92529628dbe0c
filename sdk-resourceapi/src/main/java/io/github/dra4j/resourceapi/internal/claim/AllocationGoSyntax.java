package io.github.dra4j.resourceapi.internal.claim;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceToleration;
import io.github.dra4j.resourceapi.internal.field.GoValues;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Prints an allocation as the API server prints the refused value of {@code status.allocation:
 * Invalid value: ...: field is immutable}: Go's {@code %#v} of its internal {@code
 * resource.AllocationResult} (Kubernetes 1.36 field order). Two things cannot be reproduced: Go
 * prints the memory address of a set pointer field, such as {@code (*bool)(0xc0001a2b3c)}, for
 * which this prints the fixed stand-in {@code 0xc000000000}; and it prints a quantity's internal
 * representation, for which this prints the quantity as text. Stateless.
 */
final class AllocationGoSyntax {

  /** Stands in for the address Go prints for a set pointer. */
  static final String ADDRESS = "0xc000000000";

  private AllocationGoSyntax() {}

  /**
   * Prints an allocation.
   *
   * @param allocation the allocation, not null
   * @return the printed value, to be shown as it is
   */
  static GoValues.Raw print(AllocationResult allocation) {
    StringBuilder out = new StringBuilder("resource.AllocationResult{Devices:");
    deviceAllocation(allocation.getDevices(), out);
    out.append(", NodeSelector:").append(pointer("core.NodeSelector",
        allocation.getNodeSelector()));
    out.append(", AllocationTimestamp:").append(pointer("v1.Time",
        allocation.getAllocationTimestamp()));
    return new GoValues.Raw(out.append('}').toString());
  }

  private static void deviceAllocation(DeviceAllocationResult devices, StringBuilder out) {
    out.append("resource.DeviceAllocationResult{Results:");
    out.append(slice("resource.DeviceRequestAllocationResult",
        devices == null ? null : devices.getResults(), AllocationGoSyntax::result));
    out.append(", Config:");
    out.append(slice("resource.DeviceAllocationConfiguration",
        devices == null ? null : devices.getConfig(), AllocationGoSyntax::config));
    out.append('}');
  }

  private static String result(DeviceRequestAllocationResult result) {
    return "resource.DeviceRequestAllocationResult{Request:" + string(result.getRequest())
        + ", Driver:" + string(result.getDriver())
        + ", Pool:" + string(result.getPool())
        + ", Device:" + string(result.getDevice())
        + ", AdminAccess:" + pointer("bool", result.getAdminAccess())
        + ", Tolerations:" + slice("resource.DeviceToleration", result.getTolerations(),
            AllocationGoSyntax::toleration)
        + ", BindingConditions:" + slice("string", result.getBindingConditions(),
            AllocationGoSyntax::string)
        + ", BindingFailureConditions:" + slice("string", result.getBindingFailureConditions(),
            AllocationGoSyntax::string)
        + ", ShareID:" + pointer("types.UID", result.getShareID())
        + ", ConsumedCapacity:" + quantities(result.getConsumedCapacity()) + "}";
  }

  private static String toleration(DeviceToleration toleration) {
    return "resource.DeviceToleration{Key:" + string(toleration.getKey())
        + ", Operator:" + string(toleration.getOperator())
        + ", Value:" + string(toleration.getValue())
        + ", Effect:" + string(toleration.getEffect())
        + ", TolerationSeconds:" + pointer("int64", toleration.getTolerationSeconds()) + "}";
  }

  private static String config(DeviceAllocationConfiguration config) {
    return "resource.DeviceAllocationConfiguration{Source:" + string(config.getSource())
        + ", Requests:" + slice("string", config.getRequests(), AllocationGoSyntax::string)
        + ", DeviceConfiguration:resource.DeviceConfiguration{Opaque:"
        + pointer("resource.OpaqueDeviceConfiguration", config.getOpaque()) + "}}";
  }

  private static String quantities(Map<String, Quantity> map) {
    String type = "map[resource.QualifiedName]resource.Quantity";
    if (map == null || map.isEmpty()) {
      return type + "(nil)";
    }
    StringBuilder out = new StringBuilder(type).append('{');
    boolean first = true;
    for (Map.Entry<String, Quantity> entry : new TreeMap<>(map).entrySet()) {
      out.append(first ? "" : ", ").append(string(entry.getKey())).append(':');
      Quantity quantity = entry.getValue();
      out.append(quantity == null ? "resource.Quantity{}"
          : string(quantity.getAmount() + nullToEmpty(quantity.getFormat())));
      first = false;
    }
    return out.append('}').toString();
  }

  private static <T> String slice(String type, List<T> items, Function<T, String> item) {
    if (items == null || items.isEmpty()) {
      return "[]" + type + "(nil)";
    }
    StringBuilder out = new StringBuilder("[]").append(type).append('{');
    for (int i = 0; i < items.size(); i++) {
      out.append(i == 0 ? "" : ", ").append(item.apply(items.get(i)));
    }
    return out.append('}').toString();
  }

  private static String pointer(String type, Object value) {
    return "(*" + type + ")(" + (value == null ? "nil" : ADDRESS) + ")";
  }

  private static String string(String value) {
    return GoValues.quote(nullToEmpty(value));
  }

  private static String nullToEmpty(String value) {
    return value == null ? "" : value;
  }
}
