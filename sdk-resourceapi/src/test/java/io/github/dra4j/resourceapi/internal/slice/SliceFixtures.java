package io.github.dra4j.resourceapi.internal.slice;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCounterConsumption;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.github.dra4j.resourceapi.ExpectedErrors;
import io.github.dra4j.resourceapi.FeatureGates;
import io.github.dra4j.resourceapi.FieldError;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import tools.jackson.databind.json.JsonMapper;

/**
 * The objects the slice tests start from, written as JSON (single quotes for double quotes), in
 * the shape of Kubernetes' test fixtures: slice {@code foo} on node {@code foo} of driver
 * {@code test.example.com}, pool {@code foo} of one slice, devices {@code device-<i>} with an int,
 * a string, a version and a bool attribute and 1Gi of {@code memory}.
 */
final class SliceFixtures {

  static final JsonMapper JSON = JsonMapper.builder().build();
  static final FeatureGates GATES = FeatureGates.kubernetes136();
  static final String GOOD = "foo";
  static final String BAD = "!@#$%^";
  static final String DRIVER = "test.example.com";

  private SliceFixtures() {}

  /** Parses JSON written with single quotes. */
  static <T> T json(String text, Class<T> type) {
    return JSON.readValue(text.replace('\'', '"'), type);
  }

  /** Kubernetes' testResourceSlice: name, node and pool, driver, so many devices. */
  static ResourceSlice slice(String name, String nodeName, String driver, int devices) {
    ResourceSlice slice = json("{'apiVersion': 'resource.k8s.io/v1', 'kind': 'ResourceSlice', "
        + "'metadata': {'name': '" + name + "'}, 'spec': {'nodeName': '" + nodeName
        + "', 'driver': '" + driver + "', 'pool': {'name': '" + nodeName
        + "', 'resourceSliceCount': 1}}}", ResourceSlice.class);
    List<Device> list = new ArrayList<>();
    for (int i = 0; i < devices; i++) {
      list.add(device("device-" + i));
    }
    slice.getSpec().setDevices(list);
    return slice;
  }

  /** A valid slice with so many devices. */
  static ResourceSlice slice(int devices) {
    return slice(GOOD, GOOD, DRIVER, devices);
  }

  /** A valid slice with one device, changed. */
  static ResourceSlice slice(Consumer<ResourceSlice> change) {
    ResourceSlice slice = slice(1);
    change.accept(slice);
    return slice;
  }

  /** A valid slice with so many devices, changed. */
  static ResourceSlice slice(int devices, Consumer<ResourceSlice> change) {
    ResourceSlice slice = slice(devices);
    change.accept(slice);
    return slice;
  }

  /** Kubernetes' testResourceSliceWithSharedCounters: counter sets counterset-i, no devices. */
  static ResourceSlice sharedCounters(int sets) {
    ResourceSlice slice = slice(0);
    slice.getSpec().setDevices(new ArrayList<>());
    slice.getSpec().setSharedCounters(counterSets(sets));
    return slice;
  }

  static List<CounterSet> counterSets(int count) {
    List<CounterSet> sets = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      sets.add(json("{'name': 'counterset-" + i + "', 'counters': {'memory': {'value': '1Gi'}}}",
          CounterSet.class));
    }
    return sets;
  }

  static List<DeviceCounterConsumption> consumptions(int count) {
    List<DeviceCounterConsumption> list = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      list.add(consumption("counterset-" + i));
    }
    return list;
  }

  static DeviceCounterConsumption consumption(String counterSet) {
    DeviceCounterConsumption consumption = json("{'counters': {'memory': {'value': '1Gi'}}}",
        DeviceCounterConsumption.class);
    consumption.setCounterSet(counterSet);
    return consumption;
  }

  static Map<String, io.fabric8.kubernetes.api.model.resource.v1.Counter> counters(int count) {
    Map<String, io.fabric8.kubernetes.api.model.resource.v1.Counter> counters = new LinkedHashMap<>();
    for (int i = 0; i < count; i++) {
      counters.put("memory-" + i,
          new io.fabric8.kubernetes.api.model.resource.v1.Counter(new Quantity("1Gi")));
    }
    return counters;
  }

  static Device device(String name) {
    return json(String.format("{'name': '%s', 'attributes': {"
        + "'int': {'int': 42}, 'string': {'string': 'hello world'}, "
        + "'version': {'version': '1.2.3'}, 'bool': {'bool': true}}, "
        + "'capacity': {'memory': {'value': '1Gi'}}}", name), Device.class);
  }

  static DeviceAttribute attribute(String json) {
    return json(json, DeviceAttribute.class);
  }

  static DeviceTaint taint(String json) {
    return json(json, DeviceTaint.class);
  }

  static Device first(ResourceSlice slice) {
    return slice.getSpec().getDevices().get(0);
  }

  /** Replaces the attributes of a device with the given name/value pairs. */
  static void attributes(Device device, Object... nameThenAttribute) {
    Map<String, DeviceAttribute> map = new LinkedHashMap<>();
    for (int i = 0; i < nameThenAttribute.length; i += 2) {
      map.put((String) nameThenAttribute[i], (DeviceAttribute) nameThenAttribute[i + 1]);
    }
    device.setAttributes(map);
  }

  static String repeat(String text, int times) {
    return text.repeat(times);
  }

  /** A named case of a table: what is validated and the errors it must give. */
  record Case(String name, Object input, List<String> expected) {
    Case(String name, Object input, String... expected) {
      this(name, input, Arrays.asList(expected));
    }

    void check(List<FieldError> errors) {
      ExpectedErrors.assertErrors(errors, expected.toArray(String[]::new));
    }

    @Override
    public String toString() {
      return name;
    }
  }
}
