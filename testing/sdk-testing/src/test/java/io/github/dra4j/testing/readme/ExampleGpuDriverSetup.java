package io.github.dra4j.testing.readme;

import io.github.dra4j.kubeletplugin.DraDriver;
import io.github.dra4j.resourceslice.DriverResources;
import io.github.dra4j.testing.junit.DriverUnderTest;
import io.github.dra4j.testing.node.SimulatedNode;

/** The README's test setup. */
// README:begin setup
public final class ExampleGpuDriverSetup implements DriverUnderTest {
  @Override
  public String driverName() {
    return ExampleGpuDriver.NAME;
  }

  @Override
  public DraDriver create(SimulatedNode node) {
    return ExampleGpuDriver.lifecycle(); // CDI specs go to the node's CDI directory
  }

  @Override
  public DriverResources resources(SimulatedNode node) {
    return ExampleGpuDriver.devices(node.nodeName(), 2);
  }
}
// README:end
