package io.github.dra4j.cel;

import static io.github.dra4j.cel.ExampleDevice.capacity;
import static io.github.dra4j.cel.ExampleDevice.integer;
import static io.github.dra4j.cel.ExampleDevice.string;
import static io.github.dra4j.cel.ExampleDevice.version;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** How device attributes and capacities become the CEL {@code device} variable. */
class SelectorDeviceTest {

  private static DeviceSelectorEnvironment environment;

  @BeforeAll
  static void buildEnvironment() {
    environment = DeviceSelectorEnvironment.stored();
  }

  private static SelectorResult eval(String expression, SelectorDevice device) throws Exception {
    return environment.compile(expression).evaluate(device);
  }

  @Test
  void unqualifiedAndQualifiedNamesOfTheDriverDomainLandInTheSameMap() throws Exception {
    SelectorDevice device = SelectorDevice.of("gpu.example.com", new DeviceBuilder().withName("d")
        .addToAttributes("model", string("a"))
        .addToAttributes("gpu.example.com/family", string("ampere"))
        .build());
    assertThat(eval("device.attributes[\"gpu.example.com\"].model == \"a\""
        + " && device.attributes[\"gpu.example.com\"].family == \"ampere\"", device).matches())
        .isTrue();
  }

  @Test
  void aDriverlessDeviceUsesTheEmptyDomain() throws Exception {
    SelectorDevice device = SelectorDevice.of("", new DeviceBuilder().withName("d")
        .addToAttributes("model", string("a")).build());
    assertThat(
        eval("device.attributes[\"\"].model == \"a\" && device.driver == \"\"", device).matches())
        .isTrue();
  }

  @Test
  void aBadVersionFailsEveryExpressionOnThatDeviceNamingTheAttribute() throws Exception {
    SelectorDevice device = SelectorDevice.of("gpu.example.com", new DeviceBuilder().withName("d")
        .addToAttributes("driverVersion", version("550.039.1"))
        .addToAttributes("model", string("a"))
        .build());
    assertThat(device.conversionError()).hasValue(
        "attribute driverVersion: parse semantic version: Minor number must not contain leading zeroes \"039\"");
    assertThat(eval("true", device))
        .isEqualTo(new SelectorResult.Failure(device.conversionError().orElseThrow()));
  }

  @Test
  void anAttributeWithoutValueIsUnsupported() throws Exception {
    SelectorDevice device = SelectorDevice.of("gpu.example.com", new DeviceBuilder().withName("d")
        .addToAttributes("empty", new DeviceAttribute()).build());
    assertThat(eval("true", device))
        .isEqualTo(new SelectorResult.Failure("attribute empty: unsupported attribute value"));
  }

  @Test
  void aCapacityThatIsNotAQuantityNamesTheCapacityAndValue() {
    SelectorDevice device = SelectorDevice.of("gpu.example.com", new DeviceBuilder().withName("d")
        .addToCapacity("memory", capacity("lots")).build());
    assertThat(device.conversionError()).hasValueSatisfying(message -> assertThat(message)
        .startsWith("capacity memory: value \"lots\": quantities must match"));
  }

  @Test
  void listAttributesAreListsAndIncludesWorksOnListsAndScalars() throws Exception {
    SelectorDevice device = SelectorDevice.of("nic.example.com", new DeviceBuilder().withName("d")
        .addToAttributes("ports", new DeviceAttributeBuilder().withInts(1L, 2L, 3L).build())
        .addToAttributes("speeds",
            new DeviceAttributeBuilder().withVersions("1.0.0", "2.0.0").build())
        .addToAttributes("model", string("cx7"))
        .build());
    String a = "device.attributes[\"nic.example.com\"]";
    assertThat(eval(a + ".ports.includes(2) && !" + a + ".ports.includes(7)", device).matches())
        .isTrue();
    assertThat(eval(a + ".ports.all(p, p > 0) && " + a + ".ports.sum() == 6", device).matches())
        .isTrue();
    assertThat(eval(a + ".speeds.exists(s, s.isGreaterThan(semver(\"1.5.0\")))", device).matches())
        .isTrue();
    assertThat(eval(a + ".model.includes(\"cx7\")", device).matches()).isTrue();
  }

  @Test
  void withTheListGateOffAListOnlyAttributeIsUnsupportedAndFailsEverySelector() throws Exception {
    io.fabric8.kubernetes.api.model.resource.v1.Device published = new DeviceBuilder().withName("d")
        .addToAttributes("ports", new DeviceAttributeBuilder().withInts(1L, 2L).build())
        .addToAttributes("model", string("cx7"))
        .build();
    SelectorDevice gateOff = SelectorDevice.of("nic.example.com", published, false);
    assertThat(gateOff.conversionError()).hasValue("attribute ports: unsupported attribute value");
    assertThat(eval("true", gateOff))
        .isEqualTo(new SelectorResult.Failure("attribute ports: unsupported attribute value"));
    SelectorDevice gateOn = SelectorDevice.of("nic.example.com", published, true);
    assertThat(gateOn.conversionError()).isEmpty();
    assertThat(eval("device.attributes[\"nic.example.com\"].ports.includes(2)", gateOn).matches())
        .isTrue();
  }

  @Test
  void withTheListGateOffScalarsAndIncludesOnScalarsStillWork() throws Exception {
    SelectorDevice device = SelectorDevice.of("nic.example.com", new DeviceBuilder().withName("d")
        .addToAttributes("model", string("cx7")).addToAttributes("ports", integer(2)).build(),
        false);
    assertThat(device.conversionError()).isEmpty();
    String a = "device.attributes[\"nic.example.com\"]";
    assertThat(eval(a + ".model.includes(\"cx7\") && " + a + ".ports == 2", device).matches())
        .isTrue();
  }

  @Test
  void includesRefusesListsLongerThan48Values() throws Exception {
    List<Long> many = java.util.stream.LongStream.range(0, 49).boxed().toList();
    SelectorDevice device = SelectorDevice.of("x", new DeviceBuilder().withName("d")
        .addToAttributes("many", new DeviceAttributeBuilder().withInts(many).build()).build());
    assertThat(eval("device.attributes[\"x\"].many.includes(1)", device))
        .isEqualTo(new SelectorResult.Failure(
            "'includes' function cannot be applied to lists longer than 48 values"));
  }

  @Test
  void allowMultipleAllocationsIsVisibleAndFalseWhenUnset() throws Exception {
    SelectorDevice shared = SelectorDevice.of("x", new DeviceBuilder().withName("d")
        .withAllowMultipleAllocations(true).build());
    SelectorDevice plain = SelectorDevice.of("x", new DeviceBuilder().withName("e").build());
    assertThat(eval("device.allowMultipleAllocations", shared).matches()).isTrue();
    assertThat(eval("device.allowMultipleAllocations", plain).matches()).isFalse();
  }

  @Test
  void capacityDomainsBehaveLikeAttributeDomains() throws Exception {
    SelectorDevice device = SelectorDevice.of("gpu.example.com", new DeviceBuilder().withName("d")
        .addToCapacity("memory", capacity("8Gi")).addToAttributes("i", integer(1)).build());
    assertThat(eval("device.capacity[\"none.example.com\"].size() == 0"
        + " && !(\"none.example.com\" in device.capacity) && device.capacity.size() == 1", device)
        .matches()).isTrue();
    assertThat(eval("device.capacity[\"gpu.example.com\"].nope.isInteger()", device))
        .isEqualTo(new SelectorResult.Failure("no such key: nope"));
  }
}
