package io.github.dra4j.resourceapi.internal.device;

import static io.github.dra4j.resourceapi.ExpectedErrors.assertErrors;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceToleration;
import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.internal.field.FieldPath;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;

/** The resource.k8s.io field rules, from Kubernetes' resource validation tests. */
class DeviceFieldRulesTest {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final FieldPath P = FieldPath.root("spec", "f");
  private static final String GOOD_UID = "0b1f6a3e-7c2d-4e5f-9a8b-1c2d3e4f5a6b";

  @Test
  void poolNamesAreSubdomainsSeparatedBySlashes() {
    assertErrors(DeviceFieldRules.poolName("worker-1", P));
    assertErrors(DeviceFieldRules.poolName("a/b.c/d", P));
    assertThat(DeviceFieldRules.poolName("", P)).singleElement()
        .hasToString("spec.f: Required value");
    List<FieldError> errors = DeviceFieldRules.poolName("a//B", P);
    assertErrors(errors, "Invalid spec.f", "Invalid spec.f");
    assertThat(errors).extracting(FieldError::value).containsExactly("\"\"", "\"B\"");
    assertThat(DeviceFieldRules.poolName("a/" + "b".repeat(252), P)).singleElement()
        .hasToString("spec.f: Too long: may not be more than 253 bytes");
    assertErrors(DeviceFieldRules.poolName("a".repeat(254), P), "TooLong spec.f",
        "Invalid spec.f");
  }

  @Test
  void deviceRequestCounterAndClassNames() {
    assertErrors(DeviceFieldRules.deviceName("gpu-0", P));
    assertErrors(DeviceFieldRules.deviceName("gpu.0", P), "Invalid spec.f");
    assertErrors(DeviceFieldRules.requestName("", P), "Invalid spec.f");
    assertErrors(DeviceFieldRules.counterName("memory", P));
    assertErrors(DeviceFieldRules.driverName("", P), "Required spec.f");
    assertErrors(DeviceFieldRules.deviceClassName("gpu.example.com", P));
    assertThat(DeviceFieldRules.deviceClassName("", P)).singleElement()
        .hasToString("spec.f: Required value");
    assertErrors(DeviceFieldRules.deviceClassName("GPU", P), "Invalid spec.f");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "model|", "dra.example.com/model|", "DRA.Example.com/model_2|", "_x|", "a/b/c|",
      "1model|Invalid spec.f", "-x/model|Invalid spec.f", "/model|Invalid spec.f",
      "dra.example.com/|Invalid spec.f", "/|Invalid spec.f;Invalid spec.f",
      "|Invalid spec.f", "a.b/c-d|Invalid spec.f",
      "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx|TooLong spec.f",
      "x.example.com/xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx|TooLong spec.f"})
  void qualifiedNames(String name, String expected) {
    String[] errors = expected == null ? new String[0] : expected.split(";");
    assertErrors(DeviceFieldRules.qualifiedName(name == null ? "" : name, P), errors);
  }

  @Test
  void qualifiedNameMessages() {
    assertThat(DeviceFieldRules.qualifiedName("/model", P)).singleElement()
        .hasToString("spec.f: Invalid value: \"\": the domain must not be empty");
    assertThat(DeviceFieldRules.qualifiedName("a.com/", P)).singleElement()
        .hasToString("spec.f: Invalid value: \"\": the name must not be empty");
    assertThat(DeviceFieldRules.qualifiedName("a".repeat(64) + "/m", P)).singleElement()
        .hasToString("spec.f: Too long: may not be more than 63 bytes");
    assertThat(DeviceFieldRules.qualifiedName("m".repeat(33), P)).singleElement()
        .hasToString("spec.f: Too long: may not be more than 32 bytes");
    assertThat(DeviceFieldRules.fullyQualifiedName("model", P)).singleElement()
        .hasToString("spec.f: Invalid value: \"model\": a fully qualified name must be a domain"
            + " and a name separated by a slash");
    assertErrors(DeviceFieldRules.fullyQualifiedName("dra.example.com/model", P));
    assertErrors(DeviceFieldRules.fullyQualifiedName("", P), "Invalid spec.f", "Invalid spec.f");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      GOOD_UID + "|",
      "0B1F6A3E-7C2D-4E5F-9A8B-1C2D3E4F5A6B|uid must be in RFC 4122 normalized form,"
          + " `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` with lowercase hexadecimal characters",
      "0b1f6a3e7c2d4e5f9a8b1c2d3e4f5a6b|uid must be in RFC 4122 normalized form,"
          + " `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` with lowercase hexadecimal characters",
      "{" + GOOD_UID + "}|uid must be in RFC 4122 normalized form,"
          + " `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` with lowercase hexadecimal characters",
      "urn:uuid:" + GOOD_UID + "|uid must be in RFC 4122 normalized form,"
          + " `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` with lowercase hexadecimal characters",
      "urn:uuix:" + GOOD_UID + "|error validating uid: invalid urn prefix: \"urn:uuix:\"",
      "[" + GOOD_UID + "]|error validating uid: invalid bracketed UUID format",
      "abc|error validating uid: invalid UUID length: 3",
      "|error validating uid: invalid UUID length: 0",
      "0b1f6a3e_7c2d-4e5f-9a8b-1c2d3e4f5a6b|error validating uid: invalid UUID format",
      "0b1f6a3g-7c2d-4e5f-9a8b-1c2d3e4f5a6b|error validating uid: invalid UUID format"})
  void shareUids(String uid, String message) {
    String value = uid == null ? "" : uid;
    List<FieldError> errors = DeviceFieldRules.uid(value, P);
    if (message == null) {
      assertErrors(errors);
    } else {
      assertThat(errors).singleElement().extracting(FieldError::detail).isEqualTo(message);
    }
  }

  @Test
  void rawExtensions() {
    assertThat(DeviceFieldRules.rawExtension(null, P, false, 10)).singleElement()
        .hasToString("spec.f: Required value");
    assertErrors(DeviceFieldRules.rawExtension(JsonNodeFactory.instance.nullNode(), P, false,
        10), "Required spec.f");
    assertErrors(DeviceFieldRules.rawExtension(Map.of("a", 1), P, false, 10));
    assertErrors(DeviceFieldRules.rawExtension(JSON.readTree("{\"a\":[1,2]}"), P, false, 100));
    assertThat(DeviceFieldRules.rawExtension(List.of(1), P, false, 10)).singleElement()
        .hasToString("spec.f: Invalid value: \"<value omitted>\": must be a valid JSON object");
    assertErrors(DeviceFieldRules.rawExtension("text", P, false, 10), "Invalid spec.f");
    assertErrors(DeviceFieldRules.rawExtension(42, P, false, 10), "Invalid spec.f");
    assertThat(DeviceFieldRules.rawExtension(Map.of("k", "0123456789"), P, false, 10))
        .singleElement().hasToString("spec.f: Too long: may not be more than 10 bytes");
    assertErrors(DeviceFieldRules.rawExtension(Map.of("k", "0123456789"), P, true, 10));
    assertErrors(DeviceFieldRules.rawExtension(Map.of("k", "01234"), P, false, 13));
  }

  @Test
  void taints() {
    assertErrors(DeviceFieldRules.taint(taint("{\"key\":\"example.com/overheat\","
        + "\"value\":\"hot\",\"effect\":\"NoExecute\"}"), null, P));
    assertErrors(DeviceFieldRules.taint(taint("{\"key\":\"k\",\"effect\":\"None\"}"), null, P));
    assertErrors(DeviceFieldRules.taint(taint("{}"), null, P), "Invalid spec.f.key",
        "Invalid spec.f.key", "Required spec.f.effect");
    List<FieldError> errors = DeviceFieldRules.taint(taint("{\"key\":\"-k\",\"value\":\"-v\","
        + "\"effect\":\"Never\"}"), null, P);
    assertErrors(errors, "Invalid spec.f.key", "Invalid spec.f.value",
        "NotSupported spec.f.effect");
    assertThat(errors.get(2)).hasToString("spec.f.effect: Unsupported value: \"Never\":"
        + " supported values: \"NoExecute\", \"NoSchedule\", \"None\"");
    assertErrors(DeviceFieldRules.taint(taint("{\"key\":\"k\",\"effect\":\"Never\"}"),
        taint("{\"key\":\"old\",\"effect\":\"Never\"}"), P));
    assertErrors(DeviceFieldRules.taint(taint("{\"key\":\"k\",\"effect\":\"Never\"}"),
        taint("{\"key\":\"k\",\"effect\":\"NoSchedule\"}"), P), "NotSupported spec.f.effect");
  }

  @Test
  void tolerations() {
    assertErrors(DeviceFieldRules.toleration(toleration("{\"key\":\"k\",\"operator\":\"Equal\","
        + "\"value\":\"v\",\"effect\":\"NoSchedule\",\"tolerationSeconds\":5}"), P));
    assertErrors(DeviceFieldRules.toleration(toleration("{\"operator\":\"Exists\"}"), P));
    assertErrors(DeviceFieldRules.toleration(toleration("{\"operator\":\"Equal\"}"), P));
    assertThat(DeviceFieldRules.toleration(toleration("{\"operator\":\"Exists\","
        + "\"value\":\"v\"}"), P)).singleElement().hasToString("spec.f.value: Invalid value:"
            + " \"v\": must be empty for operator `Exists`");
    assertErrors(DeviceFieldRules.toleration(toleration("{\"key\":\"a/b/c\"}"), P),
        "Invalid spec.f.key", "Required spec.f.operator");
    List<FieldError> errors = DeviceFieldRules.toleration(toleration("{\"operator\":\"In\","
        + "\"effect\":\"Bad\"}"), P);
    assertErrors(errors, "NotSupported spec.f.operator", "NotSupported spec.f.effect");
    assertThat(errors.get(0)).hasToString("spec.f.operator: Unsupported value: \"In\":"
        + " supported values: \"Equal\", \"Exists\"");
    assertErrors(DeviceFieldRules.toleration(toleration("{\"operator\":\"Equal\","
        + "\"value\":\"-v\"}"), P), "Invalid spec.f.value");
  }

  @Test
  void bindingParameters() {
    FieldPath d = FieldPath.root("spec", "devices").index(0);
    assertErrors(DeviceFieldRules.bindingParameters(null, null, d));
    assertErrors(DeviceFieldRules.bindingParameters(List.of("a", "example.com/b"),
        List.of("c"), d));
    assertErrors(DeviceFieldRules.bindingParameters(List.of("a", "b", "c", "d", "e"),
        List.of("f"), d), "TooMany spec.devices[0].bindingConditions");
    List<FieldError> errors = DeviceFieldRules.bindingParameters(List.of("a", "a", "-x"),
        List.of("b", "b", "a"), d);
    assertErrors(errors, "Invalid spec.devices[0].bindingConditions[2]",
        "Duplicate spec.devices[0].bindingConditions[1]",
        "Duplicate spec.devices[0].bindingFailureConditions[1]",
        "Invalid spec.devices[0].bindingFailureConditions[2]");
    assertThat(errors).extracting(FieldError::toString).contains(
        "spec.devices[0].bindingFailureConditions[2]: Invalid value: \"a\":"
            + " bindingFailureConditions must not overlap with bindingConditions");
    assertThat(DeviceFieldRules.bindingParameters(List.of(), List.of("f"), d)).singleElement()
        .hasToString("spec.devices[0].bindingConditions: Invalid value: null: bindingConditions"
            + " are required to use bindingFailureConditions");
    assertThat(DeviceFieldRules.bindingParameters(List.of("c"), null, d)).singleElement()
        .hasToString("spec.devices[0].bindingFailureConditions: Invalid value: null:"
            + " bindingFailureConditions are required to use bindingConditions");
  }

  private static DeviceTaint taint(String json) {
    return JSON.readValue(json, DeviceTaint.class);
  }

  private static DeviceToleration toleration(String json) {
    return JSON.readValue(json, DeviceToleration.class);
  }
}
