package io.github.dra4j.resourceapi.internal.claim;

import static io.github.dra4j.resourceapi.ExpectedErrors.assertErrors;
import static io.github.dra4j.resourceapi.internal.claim.Fixtures.GPU_REQUEST;
import static io.github.dra4j.resourceapi.internal.claim.Fixtures.SUB_REQUEST;
import static io.github.dra4j.resourceapi.internal.claim.Fixtures.claim;
import static io.github.dra4j.resourceapi.internal.claim.Fixtures.devicesJson;
import static io.github.dra4j.resourceapi.internal.claim.Fixtures.repeat;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.dra4j.resourceapi.FeatureGates;
import io.github.dra4j.resourceapi.FieldError;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A claim's requests: names, exactly one of {@code exactly} and {@code firstAvailable}, device
 * classes, allocation modes and counts, sub-requests, selectors and tolerations.
 */
class DeviceRequestRulesTest {

  private static final FeatureGates GATES = FeatureGates.kubernetes136();
  private static final String R0 = "spec.devices.requests[0]";

  private static String exact(String name, String body) {
    return "{name:'" + name + "',exactly:{" + body + "}}";
  }

  private static String sub(String name) {
    return String.format(SUB_REQUEST, name);
  }

  private static String firstAvailable(String name, String subRequests) {
    return "{name:'" + name + "',firstAvailable:[" + subRequests + "]}";
  }

  private static String gpu(String more) {
    return exact("gpu", "deviceClassName:'gpu.example.com',allocationMode:'ExactCount',count:1"
        + (more.isEmpty() ? "" : "," + more));
  }

  private static String toleration(String body) {
    return gpu("tolerations:[" + body + "]");
  }

  static Stream<Arguments> valid() {
    return Stream.of(
        Arguments.of("one exact request", GPU_REQUEST),
        Arguments.of("32 requests", repeat(32, i -> exact("gpu-" + i,
            "deviceClassName:'gpu.example.com',allocationMode:'ExactCount',count:1"))),
        Arguments.of("all devices, no count",
            exact("gpu", "deviceClassName:'gpu.example.com',allocationMode:'All'")),
        Arguments.of("all devices, count zero",
            exact("gpu", "deviceClassName:'gpu.example.com',allocationMode:'All',count:0")),
        Arguments.of("a count of 100", exact("gpu",
            "deviceClassName:'gpu.example.com',allocationMode:'ExactCount',count:100")),
        Arguments.of("a dotted class name", exact("gpu",
            "deviceClassName:'a.b.c',allocationMode:'ExactCount',count:1")),
        Arguments.of("selectors", gpu("selectors:[{cel:{expression:'device.driver == \"x\"'}},"
            + "{cel:{expression:'true'}}]")),
        Arguments.of("admin access (checked by the strategy, not here)",
            gpu("adminAccess:true")),
        Arguments.of("capacity requests (not checked in 1.36)",
            gpu("capacity:{requests:{memory:'1Gi'}}")),
        Arguments.of("two sub-requests", firstAvailable("gpu", sub("big") + "," + sub("small"))),
        Arguments.of("eight sub-requests", firstAvailable("gpu", repeat(8, i -> sub("s" + i)))),
        Arguments.of("a sub-request for all devices", firstAvailable("gpu",
            "{name:'all',deviceClassName:'gpu.example.com',allocationMode:'All'}")),
        Arguments.of("sub-requests named like other requests",
            firstAvailable("gpu", sub("gpu")) + "," + exact("other",
                "deviceClassName:'gpu.example.com',allocationMode:'ExactCount',count:1")),
        Arguments.of("toleration: Exists without key",
            toleration("{operator:'Exists',effect:'NoSchedule'}")),
        Arguments.of("toleration: Equal with key and value",
            toleration("{key:'example.com/taint',operator:'Equal',value:'v',effect:'NoExecute'}")),
        Arguments.of("toleration: no effect", toleration("{key:'k',operator:'Exists'}")),
        Arguments.of("toleration: Equal with empty value",
            toleration("{key:'k',operator:'Equal'}")),
        Arguments.of("toleration: tolerationSeconds",
            toleration("{operator:'Exists',effect:'NoExecute',tolerationSeconds:30}")),
        Arguments.of("17 tolerations (1.36 does not count them)",
            toleration(repeat(17, i -> "{key:'k" + i + "',operator:'Exists'}"))),
        Arguments.of("a sub-request toleration", firstAvailable("gpu",
            "{name:'s',deviceClassName:'c',allocationMode:'ExactCount',count:1,"
                + "tolerations:[{operator:'Exists'}]}")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valid")
  void validRequests(String name, String requests) {
    assertErrors(ResourceClaimValidation.validate(claim(devicesJson(requests, "")), GATES));
  }

  static Stream<Arguments> invalid() {
    return Stream.of(
        Arguments.of("33 requests", repeat(33, i -> exact("gpu-" + i,
            "deviceClassName:'gpu.example.com',allocationMode:'ExactCount',count:1")),
            List.of("TooMany spec.devices.requests")),
        Arguments.of("33 requests with bad names: only the size is reported",
            repeat(33, i -> exact("GPU_" + i, "")), List.of("TooMany spec.devices.requests")),
        Arguments.of("upper case and underscore in a name", gpu("").replace("'gpu'", "'GPU_0'"),
            List.of("Invalid " + R0 + ".name")),
        Arguments.of("a dot in a name", gpu("").replace("'gpu'", "'gpu.0'"),
            List.of("Invalid " + R0 + ".name")),
        Arguments.of("symbols in a name", gpu("").replace("'gpu'", "'!@#$%^'"),
            List.of("Invalid " + R0 + ".name")),
        Arguments.of("a name of 64 characters",
            gpu("").replace("'gpu'", "'" + "a".repeat(64) + "'"),
            List.of("Invalid " + R0 + ".name")),
        Arguments.of("duplicate names", GPU_REQUEST + "," + GPU_REQUEST,
            List.of("Duplicate spec.devices.requests[1]")),
        Arguments.of("neither exactly nor firstAvailable", "{name:'gpu'}",
            List.of("Required " + R0)),
        Arguments.of("an empty firstAvailable", "{name:'gpu',firstAvailable:[]}",
            List.of("Required " + R0)),
        Arguments.of("both exactly and firstAvailable", "{name:'gpu',exactly:{deviceClassName:'c',"
            + "allocationMode:'ExactCount',count:1},firstAvailable:[" + sub("s") + "]}",
            List.of("Invalid " + R0)),
        Arguments.of("both, with a bad exact request: only the conflict",
            "{name:'gpu',exactly:{},firstAvailable:[" + sub("s") + "]}",
            List.of("Invalid " + R0)),
        Arguments.of("no device class",
            exact("gpu", "allocationMode:'ExactCount',count:1"),
            List.of("Required " + R0 + ".exactly.deviceClassName")),
        Arguments.of("a bad device class",
            exact("gpu", "deviceClassName:'!@#$%^',allocationMode:'ExactCount',count:1"),
            List.of("Invalid " + R0 + ".exactly.deviceClassName")),
        Arguments.of("an empty exact request", "{name:'gpu',exactly:{}}",
            List.of("Required " + R0 + ".exactly.deviceClassName",
                "NotSupported " + R0 + ".exactly.allocationMode")),
        Arguments.of("an unknown allocation mode",
            exact("gpu", "deviceClassName:'c',allocationMode:'other'"),
            List.of("NotSupported " + R0 + ".exactly.allocationMode")),
        Arguments.of("ExactCount with count -1",
            exact("gpu", "deviceClassName:'c',allocationMode:'ExactCount',count:-1"),
            List.of("Invalid " + R0 + ".exactly.count")),
        Arguments.of("ExactCount without count",
            exact("gpu", "deviceClassName:'c',allocationMode:'ExactCount'"),
            List.of("Invalid " + R0 + ".exactly.count")),
        Arguments.of("All with count 2",
            exact("gpu", "deviceClassName:'c',allocationMode:'All',count:2"),
            List.of("Invalid " + R0 + ".exactly.count")),
        Arguments.of("allocation modes of several requests", String.join(",",
            GPU_REQUEST,
            exact("gpu2", "deviceClassName:'c',allocationMode:'All',count:0"),
            exact("gpu3", "deviceClassName:'c',allocationMode:'ExactCount',count:-1"),
            exact("gpu4", "deviceClassName:'c',allocationMode:'other',count:1"),
            exact("gpu5", "deviceClassName:'c',allocationMode:'All',count:2"),
            GPU_REQUEST),
            List.of("Invalid spec.devices.requests[2].exactly.count",
                "NotSupported spec.devices.requests[3].exactly.allocationMode",
                "Invalid spec.devices.requests[4].exactly.count",
                "Duplicate spec.devices.requests[5]")),
        Arguments.of("33 selectors",
            gpu("selectors:[" + repeat(33, i -> "{cel:{expression:'true'}}") + "]"),
            List.of("TooMany " + R0 + ".exactly.selectors")),
        Arguments.of("a selector without cel", gpu("selectors:[{}]"),
            List.of("Required " + R0 + ".exactly.selectors[0].cel")),
        Arguments.of("a selector that does not compile", GPU_REQUEST + ","
            + gpu("selectors:[{cel:{expression:'true'}},{cel:{expression:"
                + "'device.attributes[true].someBoolean'}}]").replace("'gpu'", "'gpu-2'"),
            List.of("Invalid spec.devices.requests[1].exactly.selectors[1].cel.expression")),
        Arguments.of("a selector over 10 KiB", gpu("selectors:[{cel:{expression:'"
            + "x".repeat(10 * 1024 + 1) + "'}}]"),
            List.of("TooLong " + R0 + ".exactly.selectors[0].cel.expression")),
        Arguments.of("a bad sub-request", firstAvailable("gpu", "{name:'!@#$%^'}"),
            List.of("Invalid " + R0 + ".firstAvailable[0].name",
                "Required " + R0 + ".firstAvailable[0].deviceClassName",
                "NotSupported " + R0 + ".firstAvailable[0].allocationMode")),
        Arguments.of("sub-requests of the same name",
            firstAvailable("gpu", sub("a") + "," + sub("a")),
            List.of("Duplicate " + R0 + ".firstAvailable[1]")),
        Arguments.of("nine sub-requests", firstAvailable("gpu", repeat(9, i -> sub("s" + i))),
            List.of("TooMany " + R0 + ".firstAvailable")),
        Arguments.of("a sub-request with count 0", firstAvailable("gpu",
            "{name:'s',deviceClassName:'c',allocationMode:'ExactCount',count:0}"),
            List.of("Invalid " + R0 + ".firstAvailable[0].count")),
        Arguments.of("a sub-request for all with a count", firstAvailable("gpu",
            "{name:'s',deviceClassName:'c',allocationMode:'All',count:3}"),
            List.of("Invalid " + R0 + ".firstAvailable[0].count")),
        Arguments.of("a sub-request with a bad class", firstAvailable("gpu",
            "{name:'s',deviceClassName:'Class&',allocationMode:'All'}"),
            List.of("Invalid " + R0 + ".firstAvailable[0].deviceClassName")),
        Arguments.of("a sub-request with 33 selectors", firstAvailable("gpu",
            "{name:'s',deviceClassName:'c',allocationMode:'All',selectors:["
                + repeat(33, i -> "{cel:{expression:'true'}}") + "]}"),
            List.of("TooMany " + R0 + ".firstAvailable[0].selectors")),
        Arguments.of("a sub-request selector that does not compile", firstAvailable("gpu",
            "{name:'s',deviceClassName:'c',allocationMode:'All',selectors:["
                + "{cel:{expression:'noSuchVar'}}]}"),
            List.of("Invalid " + R0 + ".firstAvailable[0].selectors[0].cel.expression")),
        Arguments.of("toleration: unknown operator",
            toleration("{key:'key',operator:'InvalidOp',value:'value',effect:'NoSchedule'}"),
            List.of("NotSupported " + R0 + ".exactly.tolerations[0].operator")),
        Arguments.of("toleration: unknown effect",
            toleration("{key:'key',operator:'Equal',value:'value',effect:'InvalidEffect'}"),
            List.of("NotSupported " + R0 + ".exactly.tolerations[0].effect")),
        Arguments.of("toleration: no operator", toleration("{key:'key'}"),
            List.of("Required " + R0 + ".exactly.tolerations[0].operator")),
        Arguments.of("toleration: Exists with a value",
            toleration("{key:'key',operator:'Exists',value:'v'}"),
            List.of("Invalid " + R0 + ".exactly.tolerations[0].value")),
        Arguments.of("toleration: a bad key",
            toleration("{key:'invalid_key!',operator:'Exists'}"),
            List.of("Invalid " + R0 + ".exactly.tolerations[0].key")),
        Arguments.of("toleration: a bad value",
            toleration("{key:'k',operator:'Equal',value:'spaces not allowed'}"),
            List.of("Invalid " + R0 + ".exactly.tolerations[0].value")),
        Arguments.of("toleration: the second of two",
            toleration("{operator:'Exists'},{key:'k',operator:'Bogus'}"),
            List.of("NotSupported " + R0 + ".exactly.tolerations[1].operator")),
        Arguments.of("a sub-request toleration with an unknown effect", firstAvailable("gpu",
            "{name:'s',deviceClassName:'c',allocationMode:'All',"
                + "tolerations:[{operator:'Exists',effect:'Sometimes'}]}"),
            List.of("NotSupported " + R0 + ".firstAvailable[0].tolerations[0].effect")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalid")
  void invalidRequests(String name, String requests, List<String> expected) {
    assertErrors(ResourceClaimValidation.validate(claim(devicesJson(requests, "")), GATES),
        expected.toArray(String[]::new));
  }

  static Stream<Arguments> messages() {
    return Stream.of(
        Arguments.of("{name:'gpu'}", R0 + ": Required value: exactly one of `exactly` or"
            + " `firstAvailable` is required"),
        Arguments.of("{name:'gpu',exactly:{deviceClassName:'c',allocationMode:'All'},"
            + "firstAvailable:[" + sub("s") + "]}",
            R0 + ": Invalid value: null: exactly one of"
                + " `exactly` or `firstAvailable` is required, but multiple fields are set"),
        Arguments.of(exact("gpu", "deviceClassName:'c',allocationMode:'ExactCount',count:-1"),
            R0 + ".exactly.count: Invalid value: -1: must be greater than zero"),
        Arguments.of(exact("gpu", "deviceClassName:'c',allocationMode:'All',count:2"),
            R0 + ".exactly.count: Invalid value: 2: must not be specified when allocationMode is"
                + " 'All'"),
        Arguments.of(exact("gpu", "deviceClassName:'c',allocationMode:'other'"),
            R0 + ".exactly.allocationMode: Unsupported value: \"other\": supported values:"
                + " \"All\", \"ExactCount\""),
        Arguments.of(exact("gpu", "deviceClassName:'c'"),
            R0 + ".exactly.allocationMode: Unsupported value: \"\": supported values:"
                + " \"All\", \"ExactCount\""),
        Arguments.of(exact("gpu", "allocationMode:'All'"),
            R0 + ".exactly.deviceClassName: Required value"),
        Arguments.of(GPU_REQUEST + "," + GPU_REQUEST,
            "spec.devices.requests[1]: Duplicate value: \"gpu\""),
        Arguments.of(firstAvailable("gpu", repeat(9, i -> sub("s" + i))),
            R0 + ".firstAvailable: Too many: 9: must have at most 8 items"),
        Arguments.of(firstAvailable("gpu", sub("a") + "," + sub("a")),
            R0 + ".firstAvailable[1]: Duplicate value: \"a\""),
        Arguments.of(repeat(33, i -> GPU_REQUEST),
            "spec.devices.requests: Too many: 33: must have at most 32 items"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("messages")
  void exactMessages(String requests, String message) {
    List<FieldError> errors = ResourceClaimValidation.validate(claim(devicesJson(requests, "")),
        GATES);
    assertThat(errors).extracting(FieldError::toString).containsExactly(message);
  }
}
