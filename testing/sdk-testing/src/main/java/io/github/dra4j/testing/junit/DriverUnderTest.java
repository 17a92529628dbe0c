package io.github.dra4j.testing.junit;

import io.github.dra4j.kubeletplugin.DraDriver;
import io.github.dra4j.kubeletplugin.KubeletPluginBuilder;
import io.github.dra4j.resourceslice.DriverResources;
import io.github.dra4j.testing.node.SimulatedNode;

/**
 * How {@link DraTest} starts the driver a test class is about. Implementations need a public
 * no-argument constructor.
 */
public interface DriverUnderTest {

  /**
   * The DRA driver name.
   *
   * @return for example {@code gpu.example.com}
   */
  String driverName();

  /**
   * Creates the driver for a node (for example pointing it at the node's CDI directory).
   *
   * @param node the simulated node
   * @return a new driver instance
   */
  DraDriver create(SimulatedNode node);

  /**
   * Adjusts the plugin's options beyond the node's defaults.
   *
   * @param builder the builder, already configured for the node
   */
  default void configure(KubeletPluginBuilder builder) {}

  /**
   * The devices the driver publishes once started; the extension waits until they are visible.
   *
   * @param node the simulated node
   * @return the resources, or null to publish nothing
   */
  default DriverResources resources(SimulatedNode node) {
    return null;
  }

  /** Marker for "no driver": the test starts its own. */
  final class None implements DriverUnderTest {
    /** Creates the marker; the extension compares the class and never makes one. */
    public None() {}

    @Override
    public String driverName() {
      throw new UnsupportedOperationException("no driver under test");
    }

    @Override
    public DraDriver create(SimulatedNode node) {
      throw new UnsupportedOperationException("no driver under test");
    }
  }
}
