package ${package}.devices;

import java.util.Objects;

/**
 * One device of the node, as the backend found it.
 *
 * @param index the device's number on the node, from 0
 * @param name the device's name in the ResourceSlice: a DNS label, unique on the node
 * @param uuid an identifier that stays the same across restarts of the driver
 * @param model the model, published as the attribute {@code model}
 * @param memory the device's memory as a Kubernetes quantity such as {@code 16Gi}, published as
 *     the capacity {@code memory}
 */
public record DeviceInfo(int index, String name, String uuid, String model, String memory) {

  /**
   * Checks the fields.
   *
   * @param index not negative
   * @param name not null
   * @param uuid not null
   * @param model not null
   * @param memory not null
   * @throws IllegalArgumentException for a negative index
   */
  public DeviceInfo {
    if (index < 0) {
      throw new IllegalArgumentException("index is negative: " + index);
    }
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(uuid, "uuid");
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(memory, "memory");
  }
}
