package ${package};

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacityBuilder;
import ${package}.devices.DeviceBackend;
import ${package}.devices.DeviceInfo;
import io.github.dra4j.lifecycle.ClaimLifecycle;
import io.github.dra4j.resourceslice.DriverResources;
import io.github.dra4j.resourceslice.Pool;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The driver on one node: the devices its backend found, published as one pool named after the
 * node ({@link #resources()}), and the SDK's claim lifecycle around {@link DeviceClaimDriver}
 * ({@link #lifecycle()}) for {@code KubeletPlugin.builder}.
 *
 * <pre>{@code
 * DeviceDriver driver = DeviceDriver.create(name, nodeName, backend);
 * try (KubeletPlugin plugin = KubeletPlugin.builder(driver.lifecycle()).driverName(name)
 *     .fromEnvironment().start()) {
 *   plugin.publishResources(driver.resources());
 *   plugin.awaitTermination();
 * }
 * }</pre>
 */
public final class DeviceDriver {

  /** The driver name unless {@code DRIVER_NAME} says otherwise. */
  public static final String DEFAULT_NAME = "${driverName}";

  private static final Logger LOG = LoggerFactory.getLogger(DeviceDriver.class);

  private final String nodeName;
  private final List<DeviceInfo> devices;
  private final ClaimLifecycle<ClaimState> lifecycle;

  private DeviceDriver(String driverName, String nodeName, DeviceBackend backend,
      List<DeviceInfo> devices) {
    this.nodeName = nodeName;
    this.devices = devices;
    this.lifecycle = ClaimLifecycle.builder(
        new DeviceClaimDriver(driverName, nodeName, backend, devices), ClaimState.class).build();
  }

  /**
   * Finds the node's devices and builds the driver.
   *
   * @param driverName the DRA driver name
   * @param nodeName the node's name, which is also the name of its pool
   * @param backend the devices' backend
   * @return the driver, ready for a kubelet plugin
   * @throws Exception if the backend cannot find the devices
   */
  public static DeviceDriver create(String driverName, String nodeName, DeviceBackend backend)
      throws Exception {
    Objects.requireNonNull(driverName, "driverName");
    Objects.requireNonNull(nodeName, "nodeName");
    List<DeviceInfo> found = List.copyOf(backend.discover());
    LOG.info("{} found {} devices on node {}", driverName, found.size(), nodeName);
    return new DeviceDriver(driverName, nodeName, backend, found);
  }

  /**
   * The driver inside the SDK's claim lifecycle: one per kubelet plugin.
   *
   * @return the lifecycle to hand to {@code KubeletPlugin.builder}
   */
  public ClaimLifecycle<ClaimState> lifecycle() {
    return lifecycle;
  }

  /**
   * The node's devices.
   *
   * @return the devices the backend found
   */
  public List<DeviceInfo> devices() {
    return devices;
  }

  /**
   * The devices as the ResourceSlices publish them: one pool named after the node, each device
   * with the attributes {@code model}, {@code uuid} and {@code index} and the capacity {@code
   * memory}, which DeviceClass and claim selectors use.
   *
   * @return the resources for {@code KubeletPlugin.publishResources}
   */
  public DriverResources resources() {
    return DriverResources.of(nodeName, Pool.builder()
        .devices(devices.stream().map(DeviceDriver::toDevice).toList())
        .build());
  }

  private static Device toDevice(DeviceInfo info) {
    return new DeviceBuilder().withName(info.name())
        .addToAttributes("model", new DeviceAttributeBuilder().withString(info.model()).build())
        .addToAttributes("uuid", new DeviceAttributeBuilder().withString(info.uuid()).build())
        .addToAttributes("index", new DeviceAttributeBuilder().withInt((long) info.index())
            .build())
        .addToCapacity("memory", new DeviceCapacityBuilder()
            .withValue(new Quantity(info.memory())).build())
        .build();
  }
}
