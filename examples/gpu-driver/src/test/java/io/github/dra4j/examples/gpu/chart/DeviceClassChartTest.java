package io.github.dra4j.examples.gpu.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.github.dra4j.cel.CompiledSelector;
import io.github.dra4j.cel.DeviceSelectorEnvironment;
import io.github.dra4j.cel.SelectorDevice;
import io.github.dra4j.cel.SelectorResult;
import io.github.dra4j.resourceapi.InvalidResourceException;
import io.github.dra4j.resourceapi.ResourceApiRules;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The DeviceClasses: one per device type, named from the driver name, each selecting exactly the
 * driver's devices of its type, each one a cluster accepts (checked with kube-apiserver's rules).
 * The selectors are compiled and run in dra4j's copy of the scheduler's CEL environment against
 * devices as the driver publishes them.
 */
class DeviceClassChartTest {

  private static final List<String> TYPES = List.of("gpu", "partition", "mig");
  private static final ResourceApiRules RULES = ResourceApiRules.kubernetes136();

  @Test
  void defaultClassesSelectEachDeviceTypeOfTheDriver() throws Exception {
    Rendered rendered = Helm.require().template();

    List<DeviceClass> classes = rendered.all(DeviceClass.class);
    assertThat(classes).extracting(c -> c.getMetadata().getName())
        .as("DeviceClass names").containsExactlyInAnyOrder(
            "gpu.example.com", "partition.gpu.example.com", "mig.gpu.example.com");
    assertClassesSelectTheirType(rendered, "gpu.example.com");
    DeviceClass gpu = rendered.named(DeviceClass.class, "gpu.example.com");
    assertThat(gpu.getSpec().getExtendedResourceName())
        .as("no extended resource name by default").isNull();
    assertThat(gpu.getApiVersion()).isEqualTo("resource.k8s.io/v1");
  }

  @Test
  void classesFollowTheDriverNameAndTheirSwitches() throws Exception {
    Rendered rendered = Helm.require().template("--set", "driverName=gpu.acme.io",
        "--set", "deviceClasses.mig.enabled=false",
        "--set", "deviceClasses.gpu.extendedResourceName=acme.io/gpu");

    assertThat(rendered.all(DeviceClass.class)).extracting(c -> c.getMetadata().getName())
        .as("DeviceClass names with mig off").containsExactlyInAnyOrder(
            "gpu.acme.io", "partition.gpu.acme.io");
    assertClassesSelectTheirType(rendered, "gpu.acme.io");
    assertThat(rendered.named(DeviceClass.class, "gpu.acme.io").getSpec()
        .getExtendedResourceName()).isEqualTo("acme.io/gpu");
    assertThat(rendered.named(DeviceClass.class, "partition.gpu.acme.io").getSpec()
        .getExtendedResourceName()).as("extended resource name only on the gpu class").isNull();
  }

  @Test
  void underNvidiasDriverNameTheClassesHaveNvidiasNamesAndSelectors() throws Exception {
    Rendered rendered = Helm.require().template("--set", "driverName=gpu.nvidia.com");

    assertThat(rendered.all(DeviceClass.class)).extracting(c -> c.getMetadata().getName())
        .as("DeviceClass names under NVIDIA's driver name").containsExactlyInAnyOrder(
            "gpu.nvidia.com", "mig.nvidia.com", "partition.gpu.nvidia.com");
    // The selectors NVIDIA's chart gives its two classes, character for character.
    assertThat(rendered.named(DeviceClass.class, "gpu.nvidia.com").getSpec().getSelectors()
        .get(0).getCel().getExpression()).isEqualTo(
            "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'gpu'");
    assertThat(rendered.named(DeviceClass.class, "mig.nvidia.com").getSpec().getSelectors()
        .get(0).getCel().getExpression()).isEqualTo(
            "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'mig'");
    assertClassesSelectTheirType(rendered, "gpu.nvidia.com");

    assertThat(Helm.require().template("--set", "driverName=gpu.nvidia.example.com")
        .all(DeviceClass.class)).extracting(c -> c.getMetadata().getName())
        .as("only NVIDIA's own driver name gets NVIDIA's class names")
        .contains("mig.gpu.nvidia.example.com");
  }

  @Test
  void anExtendedResourceNameTheServerRefusesIsCaughtBeforeTheCluster() {
    Rendered rendered = Helm.require().template(
        "--set", "deviceClasses.gpu.extendedResourceName=gpus");

    DeviceClass gpu = rendered.named(DeviceClass.class, "gpu.example.com");
    assertThatThrownBy(() -> RULES.requireValid(gpu))
        .isInstanceOf(InvalidResourceException.class)
        .hasMessage("DeviceClass.resource.k8s.io \"gpu.example.com\" is invalid:"
            + " spec.extendedResourceName: Invalid value: \"gpus\": must be a valid extended"
            + " resource name");
  }

  @Test
  void everyClassCanBeTurnedOff() {
    Rendered rendered = Helm.require().template("--set", "deviceClasses.gpu.enabled=false",
        "--set", "deviceClasses.partition.enabled=false",
        "--set", "deviceClasses.mig.enabled=false");

    assertThat(rendered.all(DeviceClass.class)).as("DeviceClasses with all three off").isEmpty();
  }

  private static void assertClassesSelectTheirType(Rendered rendered, String driver)
      throws Exception {
    for (DeviceClass deviceClass : rendered.all(DeviceClass.class)) {
      RULES.requireValid(deviceClass);
      String name = deviceClass.getMetadata().getName();
      String type = name.equals(driver) ? "gpu" : name.substring(0, name.indexOf('.'));
      assertThat(name).as("class of type %s", type).isEqualTo(className(type, driver));
      List<DeviceSelector> selectors = deviceClass.getSpec().getSelectors();
      assertThat(selectors).as("%s selectors", name).hasSize(1);
      String expression = selectors.get(0).getCel().getExpression();
      assertThat(expression).as("%s selector", name).isEqualTo("device.driver == '" + driver
          + "' && device.attributes['" + driver + "'].type == '" + type + "'");

      CompiledSelector selector = DeviceSelectorEnvironment.stored().compile(expression);
      for (String deviceType : TYPES) {
        SelectorResult own = selector.evaluate(SelectorDevice.of(driver, device(deviceType)));
        assertThat(own.matches()).as("%s on a %s device of %s: %s", name, deviceType, driver, own)
            .isEqualTo(deviceType.equals(type));
        SelectorResult other = selector.evaluate(
            SelectorDevice.of("other." + driver, device(deviceType)));
        assertThat(other).as("%s on a %s device of another driver", name, deviceType)
            .isEqualTo(SelectorResult.NO_MATCH);
      }
      SelectorResult untyped = selector.evaluate(SelectorDevice.of("other." + driver,
          new DeviceBuilder().withName("nic-0").build()));
      assertThat(untyped).as("%s on another driver's device without attributes", name)
          .isEqualTo(SelectorResult.NO_MATCH);
    }
  }

  /** The class name the chart gives a device type: NVIDIA's names under NVIDIA's driver name. */
  private static String className(String type, String driver) {
    if (type.equals("gpu")) {
      return driver;
    }
    return type.equals("mig") && driver.equals("gpu.nvidia.com") ? "mig.nvidia.com"
        : type + "." + driver;
  }

  private static Device device(String type) {
    Map<String, DeviceAttribute> attributes = Map.of(
        "type", new DeviceAttributeBuilder().withString(type).build(),
        "index", new DeviceAttributeBuilder().withInt(0L).build());
    return new DeviceBuilder().withName(type + "-0").withAttributes(attributes).build();
  }
}
