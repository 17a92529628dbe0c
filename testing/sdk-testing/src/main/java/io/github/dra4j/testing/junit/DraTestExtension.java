package io.github.dra4j.testing.junit;

import io.github.dra4j.kubeletplugin.DraDriver;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.lifecycle.ClaimDriver;
import io.github.dra4j.lifecycle.ClaimLifecycle;
import io.github.dra4j.resourceslice.DriverResources;
import io.github.dra4j.resourceslice.Pool;
import io.github.dra4j.testing.node.SimulatedNode;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The JUnit Jupiter (JUnit 6) extension behind {@link DraTest}: one simulated node (and driver)
 * per test, closed after it. State lives in the test's extension store; the extension itself is stateless.
 */
public final class DraTestExtension
    implements
      BeforeEachCallback,
      AfterEachCallback,
      ParameterResolver {

  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace
      .create(DraTestExtension.class);

  /** Creates the extension; JUnit does, for the test classes annotated with {@link DraTest}. */
  public DraTestExtension() {}

  /** What one test runs on. */
  private record Running(SimulatedNode node, DraDriver driver, KubeletPlugin plugin) {}

  @Override
  public void beforeEach(ExtensionContext context) throws Exception {
    DraTest settings = AnnotationSupport
        .findAnnotation(context.getRequiredTestClass(), DraTest.class)
        .orElseThrow(() -> new ExtensionConfigurationException(
            "DraTestExtension needs @DraTest on " + context.getRequiredTestClass()));
    SimulatedNode node = SimulatedNode.start(settings.nodeName());
    Running running;
    try {
      running = startDriver(node, settings.driver());
    } catch (RuntimeException e) {
      node.close();
      throw e;
    }
    context.getStore(NAMESPACE).put(Running.class, running);
  }

  private static Running startDriver(
      SimulatedNode node, Class<? extends DriverUnderTest> setupClass) throws Exception {
    if (setupClass == DriverUnderTest.None.class) {
      return new Running(node, null, null);
    }
    DriverUnderTest setup;
    try {
      setup = setupClass.getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException e) {
      throw new ExtensionConfigurationException(
          "@DraTest(driver = " + setupClass.getName() + "): needs a public no-argument"
              + " constructor",
          e);
    }
    DraDriver driver = setup.create(node);
    KubeletPlugin plugin = node.startDriver(setup.driverName(), driver, setup::configure);
    DriverResources resources = setup.resources(node);
    if (resources != null) {
      plugin.publishResources(resources);
      int devices = resources.pools().values().stream().mapToInt(Pool::deviceCount).sum();
      node.awaitDevices(setup.driverName(), devices);
    }
    return new Running(node, driver, plugin);
  }

  @Override
  public void afterEach(ExtensionContext context) throws Exception {
    Running running = context.getStore(NAMESPACE).remove(Running.class, Running.class);
    if (running != null) {
      running.node().close(); // also deletes the node's temporary directory
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == SimulatedNode.class || type == KubeletPlugin.class
        || DraDriver.class.isAssignableFrom(type) || ClaimDriver.class.isAssignableFrom(type);
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    Running running = context.getStore(NAMESPACE).get(Running.class, Running.class);
    if (running == null) {
      throw new ParameterResolutionException("no simulated node for this test; is the parameter"
          + " on a @BeforeAll method? Nodes are per test");
    }
    Class<?> type = parameter.getParameter().getType();
    if (type == SimulatedNode.class) {
      return running.node();
    }
    Object value = type == KubeletPlugin.class ? running.plugin() : running.driver();
    if (value instanceof ClaimLifecycle<?> lifecycle && !type.isInstance(value)) {
      value = lifecycle.claimDriver(); // the per-claim driver inside the lifecycle
    }
    if (value == null || !type.isInstance(value)) {
      throw new ParameterResolutionException("parameter " + parameter.getParameter()
          + " needs a driver under test of type " + type.getName()
          + "; set @DraTest(driver = ...)");
    }
    return value;
  }
}
