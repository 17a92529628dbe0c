package io.github.dra4j.testing.e2e;

import io.github.dra4j.kubeletplugin.DraDriver;
import io.github.dra4j.resourceslice.DriverResources;
import io.github.dra4j.testing.junit.DriverUnderTest;
import io.github.dra4j.testing.node.SimulatedNode;

/** Starts {@link FpgaDriver} for {@code @DraTest}. */
public final class FpgaDriverSetup implements DriverUnderTest {

  @Override
  public String driverName() {
    return FpgaDriver.NAME;
  }

  @Override
  public DraDriver create(SimulatedNode node) {
    return new FpgaDriver().lifecycle();
  }

  @Override
  public DriverResources resources(SimulatedNode node) {
    return FpgaDriver.resources(node.nodeName());
  }
}
