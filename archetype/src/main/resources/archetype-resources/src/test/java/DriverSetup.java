package ${package};

import ${package}.devices.SimulatedDevices;
import io.github.dra4j.kubeletplugin.DraDriver;
import io.github.dra4j.resourceslice.DriverResources;
import io.github.dra4j.testing.junit.DriverUnderTest;
import io.github.dra4j.testing.node.SimulatedNode;

/**
 * How {@code @DraTest} starts the driver: on each test's simulated node, with {@value #DEVICES}
 * simulated devices published before the test runs.
 */
public final class DriverSetup implements DriverUnderTest {

  /** The devices each test's node has: device-0 and device-2 standard, 1 and 3 large. */
  public static final int DEVICES = 4;

  @Override
  public String driverName() {
    return DeviceDriver.DEFAULT_NAME;
  }

  @Override
  public DraDriver create(SimulatedNode node) {
    return driver(node, new SimulatedDevices(node.nodeName(), DEVICES)).lifecycle();
  }

  @Override
  public DriverResources resources(SimulatedNode node) {
    // The simulated devices of a node are the same every time they are made.
    return driver(node, new SimulatedDevices(node.nodeName(), DEVICES)).resources();
  }

  /**
   * The driver on a node with a given backend.
   *
   * @param node the simulated node
   * @param backend the devices
   * @return the driver
   */
  public static DeviceDriver driver(SimulatedNode node, SimulatedDevices backend) {
    try {
      return DeviceDriver.create(DeviceDriver.DEFAULT_NAME, node.nodeName(), backend);
    } catch (Exception e) {
      throw new IllegalStateException("the simulated devices cannot fail to be found", e);
    }
  }
}
