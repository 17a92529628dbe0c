package io.github.dra4j.testing.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs each test of the class on a fresh {@link io.github.dra4j.testing.node.SimulatedNode}: an
 * in-memory API server, a fake kubelet and a CDI directory in a temporary directory. With {@link
 * #driver()}, the driver under test is started on it and its devices published before the test.
 *
 * <p>Test methods (and {@code @BeforeEach}/{@code @AfterEach} methods) may declare parameters of
 * type {@code SimulatedNode}, {@code KubeletPlugin} (the driver under test's plugin) and the
 * driver's own class: the {@code DraDriver} the setup created, or the {@code ClaimDriver} inside it
 * when that is a {@code ClaimLifecycle}.
 *
 * <pre>{@code
 * @DraTest(driver = MyDriverSetup.class)
 * class MyDriverTest {
 *   @Test
 *   void preparesAGpu(SimulatedNode node) {
 *     node.createDeviceClass("gpu", "device.driver == \"gpu.example.com\"");
 *     ResourceClaim claim = node.allocate(node.createClaim("default", "c", "gpu", "gpu", 1));
 *     PrepareOutcome prepared = node.prepare("gpu.example.com", claim);
 *     assertThat(node.containerEdits(prepared, claim).env()).contains("GPU=0");
 *   }
 * }
 * }</pre>
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(DraTestExtension.class)
public @interface DraTest {

  /**
   * The driver to start before each test.
   *
   * @return a setup class with a public no-argument constructor; default: none
   */
  Class<? extends DriverUnderTest> driver() default DriverUnderTest.None.class;

  /**
   * The Node name.
   *
   * @return default {@code node-1}
   */
  String nodeName() default "node-1";
}
