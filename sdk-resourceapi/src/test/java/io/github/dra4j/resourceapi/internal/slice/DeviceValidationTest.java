package io.github.dra4j.resourceapi.internal.slice;

import static io.github.dra4j.resourceapi.internal.slice.ResourceSliceValidationTest.selector;
import static io.github.dra4j.resourceapi.internal.slice.ResourceSliceValidationTest.strings;
import static io.github.dra4j.resourceapi.internal.slice.SliceFixtures.BAD;
import static io.github.dra4j.resourceapi.internal.slice.SliceFixtures.GATES;
import static io.github.dra4j.resourceapi.internal.slice.SliceFixtures.GOOD;
import static io.github.dra4j.resourceapi.internal.slice.SliceFixtures.attribute;
import static io.github.dra4j.resourceapi.internal.slice.SliceFixtures.attributes;
import static io.github.dra4j.resourceapi.internal.slice.SliceFixtures.first;
import static io.github.dra4j.resourceapi.internal.slice.SliceFixtures.slice;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.github.dra4j.resourceapi.internal.slice.SliceFixtures.Case;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The rules of one device: name, attributes and their names, the attribute and value limits,
 * per-device node selection and binding conditions. Cases after Kubernetes'
 * TestValidateResourceSlice, in our words.
 */
class DeviceValidationTest {

  static Stream<Case> devices() {
    return Stream.of(
        // names
        new Case("bad device name", slice(3, s -> s.getSpec().getDevices().get(1).setName(BAD)),
            "Invalid spec.devices[1].name"),
        new Case("name with a dot", named("gpu-0-mig-1g.5gb"), "Invalid spec.devices[0].name"),
        new Case("name with capitals", named("GPU-0"), "Invalid spec.devices[0].name"),
        new Case("name of 63 characters", named("g".repeat(63))),
        new Case("name of 64 characters", named("g".repeat(64)), "Invalid spec.devices[0].name"),
        new Case("missing name", named(""), "Invalid spec.devices[0].name"),
        new Case("duplicate names", slice(3, s -> s.getSpec().getDevices().get(2)
            .setName("device-0")), "Duplicate spec.devices[2]"),
        // attributes
        new Case("bad attributes", slice(5, s -> {
          attributes(s.getSpec().getDevices().get(1), BAD, new DeviceAttribute());
          attributes(s.getSpec().getDevices().get(2), GOOD,
              attribute("{'string': 'x', 'version': '1.2.3'}"));
          attributes(s.getSpec().getDevices().get(3), GOOD,
              attribute("{'version': '" + "x".repeat(65) + "'}"));
          attributes(s.getSpec().getDevices().get(4), GOOD,
              attribute("{'string': '" + "x".repeat(65) + "'}"));
        }), "Invalid spec.devices[1].attributes", "Invalid spec.devices[1].attributes[!@#$%^]",
            "Invalid spec.devices[2].attributes[foo]",
            "Invalid spec.devices[3].attributes[foo].version",
            "TooLong spec.devices[3].attributes[foo].version",
            "TooLong spec.devices[4].attributes[foo].string"),
        new Case("string of 64 bytes", withAttribute(attribute("{'string': '"
            + "x".repeat(64) + "'}"))),
        new Case("string of 33 two-byte characters", withAttribute(attribute("{'string': '"
            + "\u00e9".repeat(33) + "'}")), "TooLong spec.devices[0].attributes[foo].string"),
        new Case("version not semver", withAttribute(attribute("{'version': '1.2'}")),
            "Invalid spec.devices[0].attributes[foo].version"),
        new Case("version with a v", withAttribute(attribute("{'version': 'v1.2.3'}")),
            "Invalid spec.devices[0].attributes[foo].version"),
        new Case("version with leading zero", withAttribute(attribute("{'version': '1.02.3'}")),
            "Invalid spec.devices[0].attributes[foo].version"),
        new Case("version with pre-release and build", withAttribute(attribute(
            "{'version': '1.2.3-alpha.1+build.20240305'}"))),
        new Case("attribute with no value", withAttribute(new DeviceAttribute()),
            "Invalid spec.devices[0].attributes[foo]"),
        new Case("attribute with int and bool", withAttribute(attribute(
            "{'int': 1, 'bool': true}")), "Invalid spec.devices[0].attributes[foo]"),
        new Case("null attribute", withAttribute(null), "Invalid spec.devices[0].attributes[foo]"),
        new Case("one list of each type", slice(4, s -> {
          attributes(s.getSpec().getDevices().get(0), GOOD, attribute("{'bools': [true]}"));
          attributes(s.getSpec().getDevices().get(1), GOOD, attribute("{'ints': [1]}"));
          attributes(s.getSpec().getDevices().get(2), GOOD, attribute("{'strings': ['x']}"));
          attributes(s.getSpec().getDevices().get(3), GOOD,
              attribute("{'versions': ['1.2.3']}"));
        })),
        new Case("bad list attributes", slice(4, s -> {
          attributes(s.getSpec().getDevices().get(0), GOOD,
              attribute("{'ints': [1], 'bools': [true]}"));
          attributes(s.getSpec().getDevices().get(1), GOOD,
              attribute("{'ints': [1], 'strings': ['x', 'y'], 'string': 'z'}"));
          attributes(s.getSpec().getDevices().get(2), GOOD,
              attribute("{'strings': ['" + "x".repeat(65) + "']}"));
          attributes(s.getSpec().getDevices().get(3), GOOD,
              attribute("{'versions': ['" + "x".repeat(65) + "']}"));
        }), "Invalid spec.devices[0].attributes[foo]", "Invalid spec.devices[1].attributes[foo]",
            "TooLong spec.devices[2].attributes[foo].strings[0]",
            "Invalid spec.devices[3].attributes[foo].versions[0]",
            "TooLong spec.devices[3].attributes[foo].versions[0]"),
        // The server says "strings: must not be empty if specified" here; fabric8 decodes [] as
        // no list, so the attribute has no value at all.
        new Case("empty list", withAttribute(attribute("{'strings': []}")),
            "Invalid spec.devices[0].attributes[foo]"),
        // attribute names
        new Case("longest identifier and domain", slice(2, s -> attributes(
            s.getSpec().getDevices().get(1), "x".repeat(32), attribute("{'string': 'y'}"),
            "x".repeat(63) + "/" + "y".repeat(32), attribute("{'string': 'z'}")))),
        new Case("identifier of 33 dots", slice(2, s -> attributes(
            s.getSpec().getDevices().get(1), ".".repeat(33), attribute("{'string': 'y'}"))),
            "TooLong spec.devices[1].attributes", "Invalid spec.devices[1].attributes"),
        new Case("domain of 64 underscores", slice(2, s -> attributes(
            s.getSpec().getDevices().get(1), "_".repeat(64) + "/y", attribute("{'string': 'z'}"))),
            "TooLong spec.devices[1].attributes", "Invalid spec.devices[1].attributes"),
        new Case("domain and identifier too long", slice(2, s -> attributes(
            s.getSpec().getDevices().get(1), "x".repeat(64) + "/" + "y".repeat(33),
            attribute("{'string': 'z'}"))),
            "TooLong spec.devices[1].attributes", "TooLong spec.devices[1].attributes"),
        new Case("empty domain and identifier", slice(2, s -> attributes(
            s.getSpec().getDevices().get(1), "/", attribute("{'string': 'z'}"))),
            "Invalid spec.devices[1].attributes", "Invalid spec.devices[1].attributes"),
        new Case("name not a C identifier", withAttributeNamed("memory-size"),
            "Invalid spec.devices[0].attributes"),
        new Case("name starting with a digit", withAttributeNamed("1st"),
            "Invalid spec.devices[0].attributes"),
        new Case("domain with an underscore", withAttributeNamed("gpu_vendor.com/model"),
            "Invalid spec.devices[0].attributes"),
        new Case("domain with capitals", withAttributeNamed("GPU.Example.com/model")),
        // Kubernetes 1.38 refuses a name with more than one slash.
        new Case("two slashes", withAttributeNamed("example.com/a/b")),
        new Case("capacity name not a C identifier", slice(s -> first(s).setCapacity(Map.of(
            "memory-size", new DeviceCapacity(null, new Quantity("1Gi"))))),
            "Invalid spec.devices[0].capacity"),
        // limits of attributes and capacities
        new Case("32 attributes, 32 capacities, 32 together", slice(5, s -> {
          Device attributes = s.getSpec().getDevices().get(0);
          attributes.setAttributes(scalarAttributes(32));
          attributes.setCapacity(null);
          Device capacities = s.getSpec().getDevices().get(1);
          capacities.setAttributes(null);
          capacities.setCapacity(capacities(32));
          Device together = s.getSpec().getDevices().get(3);
          together.setAttributes(scalarAttributes(31));
          together.setCapacity(capacities(1));
        })),
        new Case("33 attributes and capacities", slice(5, s -> {
          Device device = s.getSpec().getDevices().get(3);
          device.setAttributes(scalarAttributes(32));
          device.setCapacity(capacities(1));
        }), "Invalid spec.devices[3]"),
        new Case("48 attribute values", slice(s -> valueLimit(first(s), 48, null))),
        new Case("49 values: an extra int", slice(s -> valueLimit(first(s), 48,
            attribute("{'int': 1}"))), "Invalid spec.devices[0]"),
        new Case("49 values: an extra version", slice(s -> valueLimit(first(s), 48,
            attribute("{'version': '1.0.0'}"))), "Invalid spec.devices[0]"),
        new Case("49 values: an extra list", slice(s -> valueLimit(first(s), 48,
            attribute("{'versions': ['1.0.0']}"))), "Invalid spec.devices[0]"),
        new Case("49 values: two bools in a list", slice(s -> valueLimit(first(s), 47,
            attribute("{'bools': [true, false]}"))), "Invalid spec.devices[0]"),
        new Case("49 values in one attribute of four lists", slice(s -> {
          first(s).setCapacity(null);
          attributes(first(s), "mixed_list_attrs", attribute("{'strings': ["
              + "'x', ".repeat(45) + "'x'], 'ints': [1], 'bools': [true], "
              + "'versions': ['1.0.0']}"));
        }), "Invalid spec.devices[0]", "Invalid spec.devices[0].attributes[mixed_list_attrs]"),
        // per-device node selection
        new Case("device node name", perDevice(d -> d.setNodeName("worker"))),
        new Case("device node selector", perDevice(d -> d.setNodeSelector(selector(1)))),
        new Case("device node selector with two terms", perDevice(d -> d
            .setNodeSelector(selector(2)))),
        new Case("device on all nodes", perDevice(d -> d.setAllNodes(true))),
        new Case("device without node selection", perDevice(d -> {}),
            "Required spec.devices[0]"),
        new Case("device with empty node name and allNodes false", perDevice(d -> {
          d.setNodeName("");
          d.setAllNodes(false);
        }), "Invalid spec.devices[0].nodeName", "Invalid spec.devices[0].allNodes",
            "Required spec.devices[0]"),
        new Case("device with node name and all nodes", perDevice(d -> {
          d.setNodeName("worker");
          d.setAllNodes(true);
        }), "Invalid spec.devices[0]"),
        new Case("device with a bad node name", perDevice(d -> d.setNodeName(BAD)),
            "Invalid spec.devices[0].nodeName"),
        new Case("device node name without per-device selection", slice(s -> first(s)
            .setNodeName("worker")), "Invalid spec.devices[0]"),
        new Case("device allNodes false without per-device selection", slice(s -> first(s)
            .setAllNodes(false)), "Invalid spec.devices[0]"),
        // binding conditions
        new Case("good binding conditions", binding(List.of("example.com/condition1",
            "condition2"), List.of("example.com/condition3", "condition4"))),
        new Case("4 and 4 binding conditions", binding(List.of("c1", "c2", "c3", "c4"),
            List.of("c5", "c6", "c7", "c8"))),
        new Case("5 binding conditions", binding(List.of("c1", "c2", "c3", "c4", "c5"),
            List.of("c6", "c7")), "TooMany spec.devices[0].bindingConditions"),
        new Case("5 binding failure conditions", binding(List.of("c1", "c2"),
            List.of("c3", "c4", "c5", "c6", "c7")),
            "TooMany spec.devices[0].bindingFailureConditions"),
        new Case("bad binding condition", binding(List.of("condition1", "condition2!"),
            List.of("condition3")), "Invalid spec.devices[0].bindingConditions[1]"),
        new Case("bad binding failure condition", binding(List.of("condition1"),
            List.of("condition3!", "condition4")),
            "Invalid spec.devices[0].bindingFailureConditions[0]"),
        new Case("failure conditions without conditions", binding(null,
            List.of("condition1", "condition2")), "Invalid spec.devices[0].bindingConditions"),
        new Case("conditions without failure conditions", binding(
            List.of("condition1", "condition2"), null),
            "Invalid spec.devices[0].bindingFailureConditions"),
        new Case("duplicate binding conditions", binding(List.of("condition1", "condition1"),
            List.of("condition2", "condition3")),
            "Duplicate spec.devices[0].bindingConditions[1]"),
        new Case("duplicate binding failure conditions", binding(List.of("condition1"),
            List.of("condition3", "condition3")),
            "Duplicate spec.devices[0].bindingFailureConditions[1]"),
        new Case("overlapping binding conditions", binding(List.of("condition1", "condition2"),
            List.of("condition1", "condition3")),
            "Invalid spec.devices[0].bindingFailureConditions[0]"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("devices")
  void validatesDevice(Case c) {
    c.check(ResourceSliceValidation.validate((ResourceSlice) c.input(), GATES));
  }

  @Test
  void wordsAttributeErrorsAsTheServer() {
    ResourceSlice slice = slice(3, s -> {
      attributes(s.getSpec().getDevices().get(0), GOOD, new DeviceAttribute());
      attributes(s.getSpec().getDevices().get(1), GOOD, attribute("{'version': '1.2'}"));
      attributes(s.getSpec().getDevices().get(2), GOOD,
          attribute("{'string': '" + "x".repeat(65) + "'}"));
    });
    assertThat(strings(ResourceSliceValidation.validate(slice, GATES))).containsExactlyInAnyOrder(
        "spec.devices[0].attributes[foo]: Invalid value: \"\": exactly one value must be "
            + "specified",
        "spec.devices[1].attributes[foo].version: Invalid value: \"1.2\": must be a string "
            + "compatible with semver.org spec 2.0.0",
        "spec.devices[2].attributes[foo].string: Too long: may not be more than 64 bytes");
  }

  @Test
  void printsAnAttributeWithTwoValuesAsTheServer() {
    ResourceSlice slice = withAttribute(attribute("{'string': 'x', 'ints': [1, 2]}"));
    assertThat(strings(ResourceSliceValidation.validate(slice, GATES))).containsExactly(
        "spec.devices[0].attributes[foo]: Invalid value: {\"IntValue\":null,"
            + "\"BoolValue\":null,\"StringValue\":\"x\",\"VersionValue\":null,"
            + "\"IntValues\":[1,2],\"BoolValues\":null,\"StringValues\":null,"
            + "\"VersionValues\":null}: exactly one value must be specified");
  }

  @Test
  void wordsDeviceLimitsAndNodeSelectionAsTheServer() {
    ResourceSlice slice = slice(3, s -> {
      Device many = s.getSpec().getDevices().get(0);
      many.setAttributes(scalarAttributes(32));
      many.setCapacity(capacities(1));
      valueLimit(s.getSpec().getDevices().get(1), 48, attribute("{'int': 1}"));
      s.getSpec().getDevices().get(2).setNodeName("worker");
    });
    assertThat(strings(ResourceSliceValidation.validate(slice, GATES))).containsExactlyInAnyOrder(
        "spec.devices[0]: Invalid value: 33: the total number of attributes and capacities "
            + "must not exceed 32",
        "spec.devices[1]: Invalid value: 49: the total number of attribute values must not "
            + "exceed 48",
        "spec.devices[2]: Invalid value: null: `nodeName`, `nodeSelector` and `allNodes` "
            + "can only be set if `perDeviceNodeSelection` is set to true in the ResourceSlice "
            + "spec");
    ResourceSlice both = perDevice(d -> {
      d.setNodeName("worker");
      d.setAllNodes(true);
    });
    assertThat(strings(ResourceSliceValidation.validate(both, GATES))).containsExactly(
        "spec.devices[0]: Invalid value: \"{`nodeName`, `allNodes`}\": exactly one of "
            + "`nodeName`, `nodeSelector`, or `allNodes` is required when "
            + "`perDeviceNodeSelection` is set to true in the ResourceSlice spec");
  }

  private static ResourceSlice named(String name) {
    return slice(s -> first(s).setName(name));
  }

  private static ResourceSlice withAttribute(DeviceAttribute attribute) {
    return slice(s -> attributes(first(s), GOOD, attribute));
  }

  private static ResourceSlice withAttributeNamed(String name) {
    return slice(s -> attributes(first(s), name, attribute("{'int': 1}")));
  }

  private static ResourceSlice perDevice(java.util.function.Consumer<Device> change) {
    return slice(s -> {
      s.getSpec().setNodeName(null);
      s.getSpec().setPerDeviceNodeSelection(true);
      change.accept(first(s));
    });
  }

  private static ResourceSlice binding(List<String> conditions, List<String> failures) {
    return slice(s -> {
      first(s).setBindingConditions(conditions);
      first(s).setBindingFailureConditions(failures);
    });
  }

  private static Map<String, DeviceAttribute> scalarAttributes(int count) {
    Map<String, DeviceAttribute> map = new LinkedHashMap<>();
    for (int i = 0; i < count; i++) {
      map.put("attr_" + i, attribute("{'string': 'x'}"));
    }
    return map;
  }

  private static Map<String, DeviceCapacity> capacities(int count) {
    Map<String, DeviceCapacity> map = new LinkedHashMap<>();
    for (int i = 0; i < count; i++) {
      map.put("cap_" + i, new DeviceCapacity(null, new Quantity("1Gi")));
    }
    return map;
  }

  // 31 string lists holding so many values in all, then an extra attribute if given.
  private static void valueLimit(Device device, int values, DeviceAttribute extra) {
    Map<String, DeviceAttribute> map = new LinkedHashMap<>();
    int first = values - 30;
    map.put("list_attr_0", attribute("{'strings': [" + "'x', ".repeat(first - 1) + "'x']}"));
    for (int i = 1; i < 31; i++) {
      map.put("list_attr_" + i, attribute("{'strings': ['x']}"));
    }
    if (extra != null) {
      map.put("extra_attr", extra);
    }
    device.setAttributes(map);
    device.setCapacity(null);
  }
}
