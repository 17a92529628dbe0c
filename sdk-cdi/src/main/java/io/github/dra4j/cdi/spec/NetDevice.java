package io.github.dra4j.cdi.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/**
 * A host network interface moved into the container (spec 1.1.0). OCI: {@code
 * linux.netDevices[hostInterfaceName] = {name}}.
 *
 * @param hostInterfaceName the interface on the host
 * @param name the interface name inside the container
 */
@JsonPropertyOrder({"hostInterfaceName", "name"})
@JsonInclude(JsonInclude.Include.ALWAYS)
public record NetDevice(String hostInterfaceName, String name) {

  /**
   * Turns null into empty strings (the validator reports them).
   *
   * @param hostInterfaceName the interface on the host
   * @param name the interface name inside the container
   */
  public NetDevice {
    hostInterfaceName = Copies.text(hostInterfaceName);
    name = Copies.text(name);
  }

  /**
   * Creates a net device.
   *
   * @param hostInterfaceName the host interface, e.g. {@code eno1}
   * @param name the name in the container, e.g. {@code net1}
   * @return the net device
   * @throws IllegalArgumentException naming the name that is not a Linux interface name
   */
  public static NetDevice of(String hostInterfaceName, String name) {
    return EditChecks.netDevice(new NetDevice(hostInterfaceName, name), List.of());
  }
}
