package ${package};

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import ${package}.config.DriverConfigs;
import io.github.dra4j.testing.node.OpaqueConfig;
import io.github.dra4j.testing.node.SimulatedNode;
import java.util.List;

/** Claims as users write them, for this driver's tests. */
public final class Claims {

  private Claims() {}

  /**
   * A claim for one device of a class, with a {@code DriverConfig} for its request, built with
   * the SDK's test helpers ({@link SimulatedNode#claim}, {@link OpaqueConfig}).
   *
   * @param name the claim's name, in namespace {@code default}
   * @param deviceClass the DeviceClass
   * @param driverName the driver the configuration is for
   * @param parameters the configuration's fields as JSON, without apiVersion and kind
   * @return the claim, not yet stored
   */
  public static ResourceClaim withConfig(String name, String deviceClass, String driverName,
      String parameters) {
    return SimulatedNode.claim("default", name, "dev", deviceClass, 1, OpaqueConfig.of(
        driverName, DriverConfigs.API_VERSION, DriverConfigs.KIND, parameters, "dev"));
  }

  /**
   * The devices allocated to a claim.
   *
   * @param claim an allocated claim
   * @return the devices' names, in the allocation's order
   */
  public static List<String> allocatedDevices(ResourceClaim claim) {
    return claim.getStatus().getAllocation().getDevices().getResults().stream()
        .map(result -> result.getDevice()).toList();
  }

  /**
   * A claim's UID.
   *
   * @param claim a stored claim
   * @return its UID
   */
  public static String uid(ResourceClaim claim) {
    return claim.getMetadata().getUid();
  }
}
