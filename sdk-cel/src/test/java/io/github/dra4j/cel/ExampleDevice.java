package io.github.dra4j.cel;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacityBuilder;

/**
 * One GPU-like device with an attribute and a capacity of every kind (string, int, bool, version,
 * a domain-qualified name), the subject of {@link DraCelExamplesTest}, and value shorthands.
 */
final class ExampleDevice {

  static final String DRIVER = "gpu.example.com";

  /** {@code A} in the examples. */
  static final String A = "device.attributes[\"gpu.example.com\"]";

  /** {@code C} in the examples. */
  static final String C = "device.capacity[\"gpu.example.com\"]";

  private ExampleDevice() {}

  static Device device() {
    return new DeviceBuilder()
        .withName("gpu-0")
        .addToAttributes("model", string("A100-SXM4-80GB"))
        .addToAttributes("index", integer(0))
        .addToAttributes("mig", bool(true))
        .addToAttributes("driverVersion", version("550.54.15"))
        .addToAttributes("cudaVersion", version("12.4.0-rc.1+build.7"))
        .addToAttributes("numa.example.com/node", integer(1))
        .addToCapacity("memory", capacity("80Gi"))
        .addToCapacity("sms", capacity("108"))
        .addToCapacity("numa.example.com/bandwidth", capacity("1.5T"))
        .build();
  }

  static SelectorDevice view() {
    return SelectorDevice.of(DRIVER, device());
  }

  static DeviceAttribute string(String value) {
    return new DeviceAttributeBuilder().withString(value).build();
  }

  static DeviceAttribute integer(long value) {
    return new DeviceAttributeBuilder().withInt(value).build();
  }

  static DeviceAttribute bool(boolean value) {
    return new DeviceAttributeBuilder().withBool(value).build();
  }

  static DeviceAttribute version(String value) {
    return new DeviceAttributeBuilder().withVersion(value).build();
  }

  static DeviceCapacity capacity(String value) {
    return new DeviceCapacityBuilder().withValue(new Quantity(value)).build();
  }

  /** Replaces the {@code A} and {@code C} shorthands of the document. */
  static String expand(String expression) {
    return expression.replace("A.", A + ".").replace("A[", A + "[").replace("A,", A + ",")
        .replace("C.", C + ".");
  }
}
