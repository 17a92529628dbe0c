package io.github.dra4j.testing.apiserver.internal.dispatch;

import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * The part of the real API server's ResourceSlice validation that a publishing controller can
 * trip over: required fields, exactly one node selection, devices or shared counters but not both,
 * and the size limits (128 devices, 64 if any device has taints or consumes counters, 8 counter
 * sets, 16 taints, 32 attributes plus capacities and 2 counter consumptions per device). Works on
 * every served version; in {@code v1beta1} device fields sit under {@code basic}. Stateless.
 */
public final class ResourceSliceAdmission {

  private static final int MAX_DEVICES = 128;
  private static final int MAX_DEVICES_WITH_TAINTS_OR_COUNTERS = 64;
  private static final int MAX_COUNTER_SETS = 8;
  private static final int MAX_TAINTS = 16;
  private static final int MAX_ATTRIBUTES_AND_CAPACITIES = 32;
  private static final int MAX_COUNTER_CONSUMPTIONS = 2;
  private static final String NODE_SELECTION =
      "exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required";

  /**
   * Validates a slice.
   *
   * @param slice the slice as JSON
   * @return one {@code field: problem} entry per violation; empty if valid
   */
  public List<String> validate(JsonNode slice) {
    List<String> causes = new ArrayList<>();
    JsonNode spec = slice.path("spec");
    if (spec.path("driver").asString("").isEmpty()) {
      causes.add("spec.driver: Required value");
    }
    if (spec.path("pool").path("name").asString("").isEmpty()) {
      causes.add("spec.pool.name: Required value");
    }
    if (spec.path("pool").path("resourceSliceCount").asLong(0) <= 0) {
      causes.add("spec.pool.resourceSliceCount: Invalid value: "
          + spec.path("pool").path("resourceSliceCount").asLong(0) + ": must be greater than zero");
    }
    int selections = 0;
    selections += spec.path("nodeName").asString("").isEmpty() ? 0 : 1;
    selections += spec.path("nodeSelector").isObject() ? 1 : 0;
    selections += spec.path("allNodes").asBoolean(false) ? 1 : 0;
    selections += spec.path("perDeviceNodeSelection").asBoolean(false) ? 1 : 0;
    if (selections == 0) {
      causes.add("spec: Required value: " + NODE_SELECTION);
    } else if (selections > 1) {
      causes.add("spec: Invalid value: " + selections + " node selections: " + NODE_SELECTION
          + ", but multiple fields are set");
    }
    JsonNode devices = spec.path("devices");
    JsonNode counterSets = spec.path("sharedCounters");
    if (devices.size() > 0 && counterSets.size() > 0) {
      causes.add("spec: Invalid value: devices and sharedCounters: only one of them may be set");
    }
    if (counterSets.size() > MAX_COUNTER_SETS) {
      causes.add(tooMany("spec.sharedCounters", counterSets.size(), MAX_COUNTER_SETS));
    }
    boolean restricted = false;
    for (int i = 0; i < devices.size(); i++) {
      JsonNode device = devices.get(i).has("basic") ? devices.get(i).get("basic") : devices.get(i);
      String field = "spec.devices[" + i + "]";
      int taints = device.path("taints").size();
      int consumptions = device.path("consumesCounters").size();
      restricted |= taints > 0 || consumptions > 0;
      if (taints > MAX_TAINTS) {
        causes.add(tooMany(field + ".taints", taints, MAX_TAINTS));
      }
      if (consumptions > MAX_COUNTER_CONSUMPTIONS) {
        causes.add(tooMany(field + ".consumesCounters", consumptions, MAX_COUNTER_CONSUMPTIONS));
      }
      int attributes = device.path("attributes").size() + device.path("capacity").size();
      if (attributes > MAX_ATTRIBUTES_AND_CAPACITIES) {
        causes.add(field + ": Invalid value: " + attributes
            + ": the total number of attributes and capacities must not exceed "
            + MAX_ATTRIBUTES_AND_CAPACITIES);
      }
    }
    int limit = restricted ? MAX_DEVICES_WITH_TAINTS_OR_COUNTERS : MAX_DEVICES;
    if (devices.size() > limit) {
      causes.add(tooMany("spec.devices", devices.size(), limit));
    }
    return causes;
  }

  private static String tooMany(String field, int actual, int limit) {
    return field + ": Too many: " + actual + ": must have at most " + limit + " items";
  }
}
