package io.github.dra4j.resourceapi.internal.taintrule;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRuleStatus;
import io.github.dra4j.resourceapi.ExpectedErrors;
import io.github.dra4j.resourceapi.FeatureGates;
import io.github.dra4j.resourceapi.FieldError;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.json.JsonMapper;

/**
 * DeviceTaintRule validation: creation, update and status update. Cases after Kubernetes'
 * validation_devicetaintrule_test.go (those of 1.36's selector: driver, pool, device), in our
 * words.
 */
class DeviceTaintRuleValidationTest {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final FeatureGates GATES = FeatureGates.kubernetes136();
  private static final String BAD = "!@#$%^";

  static Stream<Arguments> rules() {
    return Stream.of(
        Arguments.of("good", rule(r -> {}), List.of()),
        Arguments.of("missing name", rule(r -> r.getMetadata().setName("")),
            List.of("Required metadata.name")),
        Arguments.of("bad name", rule(r -> r.getMetadata().setName(BAD)),
            List.of("Invalid metadata.name")),
        Arguments.of("generate name", rule(r -> r.getMetadata().setGenerateName("pvc-")),
            List.of()),
        Arguments.of("labels and annotations", rule(r -> {
          r.getMetadata().setLabels(Map.of("apps.kubernetes.io/name", "test"));
          r.getMetadata().setAnnotations(Map.of("foo", "bar"));
        }), List.of()),
        Arguments.of("bad label value", rule(r -> r.getMetadata().setLabels(Map.of("hello-world",
            "spaces not allowed"))), List.of("Invalid metadata.labels")),
        Arguments.of("bad annotation name", rule(r -> r.getMetadata().setAnnotations(Map.of(BAD,
            "hello world"))), List.of("Invalid metadata.annotations")),
        Arguments.of("bad driver", rule(r -> r.getSpec().getDeviceSelector().setDriver(BAD)),
            List.of("Invalid spec.deviceSelector.driver")),
        Arguments.of("bad pool", rule(r -> r.getSpec().getDeviceSelector().setPool(BAD)),
            List.of("Invalid spec.deviceSelector.pool")),
        Arguments.of("bad device", rule(r -> r.getSpec().getDeviceSelector().setDevice(BAD)),
            List.of("Invalid spec.deviceSelector.device")),
        Arguments.of("empty driver, pool and device", rule(r -> {
          r.getSpec().getDeviceSelector().setDriver("");
          r.getSpec().getDeviceSelector().setPool("");
          r.getSpec().getDeviceSelector().setDevice("");
        }), List.of("Required spec.deviceSelector.driver",
            "Required spec.deviceSelector.pool", "Invalid spec.deviceSelector.device")),
        Arguments.of("empty selector", rule(r -> r.getSpec().getDeviceSelector().setDriver(null)),
            List.of()),
        Arguments.of("no selector", rule(r -> r.getSpec().setDeviceSelector(null)), List.of()),
        Arguments.of("other taint", rule(r -> {
          r.getSpec().getTaint().setKey("foo");
          r.getSpec().getTaint().setValue("foo");
          r.getSpec().getTaint().setEffect("NoExecute");
        }), List.of()),
        Arguments.of("taint effect None", rule(r -> r.getSpec().getTaint().setEffect("None")),
            List.of()),
        Arguments.of("taint without effect", rule(r -> r.getSpec().getTaint().setEffect(null)),
            List.of("Required spec.taint.effect")),
        Arguments.of("taint effect PreferNoSchedule", rule(r -> r.getSpec().getTaint()
            .setEffect("PreferNoSchedule")), List.of("NotSupported spec.taint.effect")),
        Arguments.of("no taint", rule(r -> r.getSpec().setTaint(null)),
            List.of("Invalid spec.taint.key", "Invalid spec.taint.key",
                "Required spec.taint.effect")),
        Arguments.of("bad taint key and value", rule(r -> {
          r.getSpec().getTaint().setKey(BAD);
          r.getSpec().getTaint().setValue(BAD);
        }), List.of("Invalid spec.taint.key", "Invalid spec.taint.value")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rules")
  void validatesRule(String name, DeviceTaintRule rule, List<String> expected) {
    ExpectedErrors.assertErrors(DeviceTaintRuleValidation.validate(rule, GATES),
        expected.toArray(String[]::new));
  }

  static Stream<Arguments> updates() {
    return Stream.of(
        Arguments.of("no change", rule(r -> {}), rule(r -> {}), List.of()),
        Arguments.of("name changed", rule(r -> {}),
            rule(r -> r.getMetadata().setName("valid-update")),
            List.of("Invalid metadata.name")),
        Arguments.of("selector and taint changed", rule(r -> {}), rule(r -> {
          r.getSpec().getDeviceSelector().setPool("other");
          r.getSpec().getTaint().setEffect("NoExecute");
        }), List.of()),
        Arguments.of("unsupported effect kept", rule(r -> r.getSpec().getTaint()
            .setEffect("PreferNoSchedule")), rule(r -> {
              r.getSpec().getTaint().setEffect("PreferNoSchedule");
              r.getSpec().getTaint().setValue("other");
            }), List.of()),
        Arguments.of("unsupported effect set", rule(r -> {}), rule(r -> r.getSpec().getTaint()
            .setEffect("PreferNoSchedule")), List.of("NotSupported spec.taint.effect")),
        Arguments.of("bad device set", rule(r -> {}), rule(r -> r.getSpec().getDeviceSelector()
            .setDevice("GPU-0")), List.of("Invalid spec.deviceSelector.device")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("updates")
  void validatesUpdate(String name, DeviceTaintRule old, DeviceTaintRule rule,
      List<String> expected) {
    ExpectedErrors.assertErrors(DeviceTaintRuleValidation.validateUpdate(rule, old, GATES),
        expected.toArray(String[]::new));
  }

  @Test
  void validatesStatusUpdate() {
    DeviceTaintRule old = rule(r -> {});
    ExpectedErrors.assertErrors(DeviceTaintRuleValidation.validateStatusUpdate(
        withConditions(1), old, GATES));
    ExpectedErrors.assertErrors(DeviceTaintRuleValidation.validateStatusUpdate(
        withConditions(8), old, GATES));
    List<FieldError> errors = DeviceTaintRuleValidation.validateStatusUpdate(withConditions(9),
        old, GATES);
    ExpectedErrors.assertErrors(errors, "TooMany status.conditions");
    assertThat(errors.get(0).toString())
        .isEqualTo("status.conditions: Too many: 9: must have at most 8 items");
    DeviceTaintRule badCondition = withConditions(1);
    badCondition.getStatus().getConditions().get(0).setStatus("Maybe");
    ExpectedErrors.assertErrors(DeviceTaintRuleValidation.validateStatusUpdate(badCondition,
        old, GATES), "NotSupported status.conditions[0].status");
    DeviceTaintRule renamed = withConditions(1);
    renamed.getMetadata().setName("other");
    ExpectedErrors.assertErrors(DeviceTaintRuleValidation.validateStatusUpdate(renamed, old,
        GATES), "Invalid metadata.name");
  }

  private static DeviceTaintRule withConditions(int count) {
    DeviceTaintRule rule = rule(r -> {});
    List<Condition> conditions = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      conditions.add(JSON.readValue(("{'type': 'Type" + i + "', 'status': 'True', 'reason': "
          + "'Reason', 'message': 'message', 'lastTransitionTime': '2026-04-22T10:00:00Z'}")
          .replace('\'', '"'), Condition.class));
    }
    rule.setStatus(new DeviceTaintRuleStatus(conditions));
    return rule;
  }

  private static DeviceTaintRule rule(Consumer<DeviceTaintRule> change) {
    DeviceTaintRule rule = JSON.readValue(("{'apiVersion': 'resource.k8s.io/v1beta2', "
        + "'kind': 'DeviceTaintRule', 'metadata': {'name': 'valid', 'resourceVersion': '1'}, "
        + "'spec': {'deviceSelector': {'driver': 'test.example.com', 'pool': 'foo', "
        + "'device': 'foo'}, 'taint': {'key': 'example.com/taint', 'value': 'tainted', "
        + "'effect': 'NoSchedule'}}}").replace('\'', '"'), DeviceTaintRule.class);
    change.accept(rule);
    return rule;
  }
}
