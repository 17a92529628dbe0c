package io.github.dra4j.resourceapi.internal.claim;

import static io.github.dra4j.resourceapi.internal.claim.StatusFixtures.ALLOCATION;
import static io.github.dra4j.resourceapi.internal.claim.StatusFixtures.CONDITION;
import static io.github.dra4j.resourceapi.internal.claim.StatusFixtures.UUID_1;
import static io.github.dra4j.resourceapi.internal.claim.StatusFixtures.UUID_2;
import static io.github.dra4j.resourceapi.internal.claim.StatusFixtures.claim;
import static io.github.dra4j.resourceapi.internal.claim.StatusFixtures.validate;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.resourceapi.ExpectedErrors;
import io.github.dra4j.resourceapi.FieldError;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code status.devices}, what drivers report about the devices they prepared (the device status
 * cases of Kubernetes' TestValidateClaimStatusUpdate and of the claim strategy's declarative
 * validation tests, and mistakes a driver is likely to make, in our words). The allocation is
 * stored before, as when a driver writes; the update keeps it.
 */
class DeviceStatusValidationTest {

  private static final String DEVICES = "status.devices";
  private static final String DEVICE = "\"driver\": \"foo\", \"pool\": \"foo\", \"device\": \"foo\"";

  static Stream<Arguments> cases() {
    String twoDrivers = """
        {"devices": {"results": [
          {"request": "foo", "driver": "driver1", "pool": "pool1", "device": "device1"},
          {"request": "foo", "driver": "driver2", "pool": "pool1", "device": "device1"}]}}""";
    String twoShares = """
        {"devices": {"results": [
          {"request": "foo", "driver": "driver1", "pool": "pool1", "device": "device1",
           "shareID": "%s"},
          {"request": "foo", "driver": "driver1", "pool": "pool1", "device": "device1",
           "shareID": "%s"}]}}""".formatted(UUID_1, UUID_2);
    String share = """
        {"devices": {"results": [{"request": "foo", "driver": "foo", "pool": "foo",
          "device": "foo", "shareID": "%s"}]}}""";
    return Stream.of(
        // valid
        valid("conditions, data and network data at their limits", ALLOCATION,
            "{" + DEVICE + ", \"conditions\": [" + StatusFixtures.conditions(8) + "],"
                + " \"data\": {\"kind\": \"foo\", \"apiVersion\": \"dra.example.com/v1\"},"
                + " \"networkData\": {\"interfaceName\": \"" + "x".repeat(256) + "\","
                + " \"hardwareAddress\": \"" + "x".repeat(128) + "\", \"ips\": [\"10.9.8.0/24\","
                + " \"2001:db8::/64\", \"10.9.8.1/24\", \"2001:db8::1/64\","
                + " \"10.9.8.2/24\", \"10.9.8.3/24\", \"10.9.8.4/24\", \"10.9.8.5/24\","
                + " \"10.9.8.6/24\", \"10.9.8.7/24\", \"10.9.8.8/24\", \"10.9.8.9/24\","
                + " \"10.9.8.10/24\", \"10.9.8.11/24\", \"10.9.8.12/24\", \"10.9.8.13/24\"]}}"),
        valid("just the device", ALLOCATION, "{" + DEVICE + "}"),
        valid("devices of two drivers", twoDrivers,
            "{\"driver\": \"driver1\", \"pool\": \"pool1\", \"device\": \"device1\"},"
                + " {\"driver\": \"driver2\", \"pool\": \"pool1\", \"device\": \"device1\"}"),
        valid("two shares of one device", twoShares,
            "{\"driver\": \"driver1\", \"pool\": \"pool1\", \"device\": \"device1\","
                + " \"shareID\": \"" + UUID_1 + "\"},"
                + " {\"driver\": \"driver1\", \"pool\": \"pool1\","
                + " \"device\": \"device1\", \"shareID\": \"" + UUID_2 + "\"}"),
        valid("data of 10 KiB", ALLOCATION,
            "{" + DEVICE + ", \"data\": " + StatusFixtures.objectOfLength(10 * 1024) + "}"),
        valid("an empty data object", ALLOCATION, "{" + DEVICE + ", \"data\": {}}"),
        // invalid
        invalid("the same device twice and the same address twice", ALLOCATION,
            "{" + DEVICE + ", \"networkData\": {\"ips\": [\"2001:db8::1/64\","
                + " \"2001:db8::1/64\"]}}, {" + DEVICE + "}",
            "Duplicate " + DEVICES + "[0].networkData.ips[1]", "Duplicate " + DEVICES + "[1]"),
        invalid("the same share twice", share.formatted(UUID_1),
            "{" + DEVICE + ", \"shareID\": \"" + UUID_1 + "\"}, {" + DEVICE + ", \"shareID\": \""
                + UUID_1 + "\"}",
            "Duplicate " + DEVICES + "[1]"),
        invalid("network data over its limits, and invalid or not canonical addresses",
            ALLOCATION, "{" + DEVICE + ", \"networkData\": {\"interfaceName\": \""
                + "x".repeat(257) + "\", \"hardwareAddress\": \"" + "x".repeat(129) + "\","
                + " \"ips\": [\"300.9.8.0/24\", \"010.009.008.000/24\", \"2001:0db8::1/64\"]}}",
            "TooLong " + DEVICES + "[0].networkData.interfaceName",
            "TooLong " + DEVICES + "[0].networkData.hardwareAddress",
            "Invalid " + DEVICES + "[0].networkData.ips[0]",
            "Invalid " + DEVICES + "[0].networkData.ips[1]",
            "Invalid " + DEVICES + "[0].networkData.ips[2]"),
        invalid("an address without prefix length", ALLOCATION,
            "{" + DEVICE + ", \"networkData\": {\"ips\": [\"10.9.8.1\"]}}",
            "Invalid " + DEVICES + "[0].networkData.ips[0]"),
        invalid("9 conditions, data over 10 KiB and 17 addresses", ALLOCATION,
            "{" + DEVICE + ", \"conditions\": [" + StatusFixtures.conditions(9) + "],"
                + " \"data\": " + StatusFixtures.objectOfLength(10 * 1024 + 1) + ","
                + " \"networkData\": {\"ips\": [" + StatusFixtures.ips(17) + "]}}",
            "TooMany " + DEVICES + "[0].conditions", "TooLong " + DEVICES + "[0].data",
            "TooMany " + DEVICES + "[0].networkData.ips"),
        invalid("data that is not a JSON object", ALLOCATION,
            "{" + DEVICE + ", \"data\": \"foo\"}",
            "Invalid " + DEVICES + "[0].data"),
        invalid("data that is a number", ALLOCATION,
            "{" + DEVICE + ", \"data\": 5}",
            "Invalid " + DEVICES + "[0].data"),
        invalid("a device that is not in the allocation", ALLOCATION,
            "{\"driver\": \"b\", \"pool\": \"a\", \"device\": \"r\"}",
            "Invalid " + DEVICES + "[0]"),
        invalid("a device of a claim without allocation", null, "{" + DEVICE + "}",
            "Invalid " + DEVICES + "[0]"),
        invalid("a share of a device allocated as a whole", ALLOCATION,
            "{" + DEVICE + ", \"shareID\": \"" + UUID_1 + "\"}",
            "Invalid " + DEVICES + "[0]"),
        invalid("the whole of a device allocated as a share", share.formatted(UUID_1),
            "{" + DEVICE + "}",
            "Invalid " + DEVICES + "[0]"),
        invalid("a share ID that is no UUID", share.formatted("invalid-uid"),
            "{" + DEVICE + ", \"shareID\": \"invalid-uid\"}",
            "Invalid " + DEVICES + "[0].shareID"),
        invalid("a condition without reason", ALLOCATION,
            "{" + DEVICE + ", \"conditions\": [{\"type\": \"Ready\", \"status\": \"True\","
                + " \"lastTransitionTime\": \"2026-01-02T03:04:05Z\"}]}",
            "Required " + DEVICES + "[0].conditions[0].reason"),
        invalid("a condition with an unknown status and no time", ALLOCATION,
            "{" + DEVICE + ", \"conditions\": [{\"type\": \"Ready\", \"status\": \"Maybe\","
                + " \"reason\": \"Checked\"}]}",
            "NotSupported " + DEVICES + "[0].conditions[0].status",
            "Required " + DEVICES + "[0].conditions[0].lastTransitionTime"),
        invalid("a condition type twice", ALLOCATION,
            "{" + DEVICE + ", \"conditions\": [" + CONDITION.formatted("Ready") + ", "
                + CONDITION.formatted("Ready") + "]}",
            "Duplicate " + DEVICES + "[0].conditions[1].type"),
        invalid("names that are not names", "{\"devices\": {\"results\": [{\"request\": \"foo\","
            + " \"driver\": \"dra_example.com\", \"pool\": \"a/Not_Valid\","
            + " \"device\": \"Dev_0\"}]}}",
            "{\"driver\": \"dra_example.com\", \"pool\": \"a/Not_Valid\", \"device\": \"Dev_0\"}",
            "Invalid " + DEVICES + "[0].driver", "Invalid " + DEVICES + "[0].pool",
            "Invalid " + DEVICES + "[0].device"),
        invalid("no names", ALLOCATION, "{}",
            "Required " + DEVICES + "[0].driver",
            "Required " + DEVICES + "[0].pool", "Invalid " + DEVICES + "[0].device",
            "Invalid " + DEVICES + "[0]"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void validatesTheDeviceStatus(String name, String allocation, String devices,
      String[] expected) {
    String stored = allocation == null ? "{}" : "{\"allocation\": " + allocation + "}";
    String updated = allocation == null ? "{\"devices\": [" + devices + "]}"
        : "{\"allocation\": " + allocation + ", \"devices\": [" + devices + "]}";
    ExpectedErrors.assertErrors(validate(claim(updated), claim(stored)), expected);
  }

  @Test
  void printsTheDeviceAsTheServerDoes() {
    ResourceClaim stored = claim("{\"allocation\": " + ALLOCATION + "}");
    ResourceClaim claim = claim("{\"allocation\": " + ALLOCATION + ", \"devices\": ["
        + "{\"driver\": \"b\", \"pool\": \"a\", \"device\": \"r\", \"shareID\": \"" + UUID_1
        + "\"}, {" + DEVICE + "}, {" + DEVICE + "}]}");
    assertThat(validate(claim, stored)).map(FieldError::toString).containsExactly(
        DEVICES + "[0]: Invalid value: {\"Driver\":\"b\",\"Pool\":\"a\",\"Device\":\"r\","
            + "\"ShareID\":\"" + UUID_1 + "\"}: must be an allocated device in the claim",
        DEVICES + "[2]: Duplicate value: {\"Driver\":\"foo\",\"Pool\":\"foo\",\"Device\":\"foo\","
            + "\"ShareID\":\"\"}");
    claim = claim("{\"allocation\": " + ALLOCATION + ", \"devices\": [{" + DEVICE
        + ", \"conditions\": [" + StatusFixtures.conditions(9) + "], \"networkData\": {"
        + "\"interfaceName\": \"" + "x".repeat(257) + "\", \"hardwareAddress\": \""
        + "x".repeat(129) + "\", \"ips\": [\"10.0.0.1/8\", \"10.0.0.1/8\"]}}]}");
    assertThat(validate(claim, stored)).map(FieldError::toString).containsExactly(
        DEVICES + "[0].conditions: Too many: 9: must have at most 8 items",
        DEVICES + "[0].networkData.interfaceName: Too long: may not be more than 256 bytes",
        DEVICES + "[0].networkData.hardwareAddress: Too long: may not be more than 128 bytes",
        DEVICES + "[0].networkData.ips[1]: Duplicate value: \"10.0.0.1/8\"");
  }

  @Test
  void wordsTypicalMistakesAsTheServerDoes() {
    ResourceClaim stored = claim("{\"allocation\": " + ALLOCATION + "}");
    ResourceClaim claim = claim("{\"allocation\": " + ALLOCATION + ", \"devices\": [{" + DEVICE
        + ", \"conditions\": [{\"type\": \"Ready\", \"status\": \"Maybe\"}],"
        + " \"data\": " + StatusFixtures.objectOfLength(10 * 1024 + 1) + ", \"networkData\": {"
        + "\"ips\": [\"300.9.8.0/24\", \"010.009.008.000/24\", \"2001:0db8::1/64\"]}}]}");
    String device = DEVICES + "[0]";
    assertThat(validate(claim, stored)).map(FieldError::toString).containsExactly(
        device + ".conditions[0].status: Unsupported value: \"Maybe\": supported values:"
            + " \"False\", \"True\", \"Unknown\"",
        device + ".conditions[0].lastTransitionTime: Required value: must be set",
        device + ".conditions[0].reason: Required value: must be set",
        device + ".data: Too long: may not be more than 10240 bytes",
        device + ".networkData.ips[0]: Invalid value: \"300.9.8.0/24\": must be a valid address"
            + " in CIDR form, (e.g. 10.9.8.7/24 or 2001:db8::1/64)",
        device + ".networkData.ips[1]: Invalid value: \"010.009.008.000/24\": must be in"
            + " canonical form (\"10.9.8.0/24\")",
        device + ".networkData.ips[2]: Invalid value: \"2001:0db8::1/64\": must be in canonical"
            + " form (\"2001:db8::1/64\")");
    claim = claim("{\"allocation\": " + ALLOCATION + ", \"devices\": [{" + DEVICE
        + ", \"data\": \"foo\"}]}");
    assertThat(validate(claim, stored)).map(FieldError::toString).containsExactly(
        device + ".data: Invalid value: \"<value omitted>\": must be a valid JSON object");
  }

  private static Arguments valid(String name, String allocation, String devices) {
    return Arguments.of(name, allocation, devices, new String[0]);
  }

  private static Arguments invalid(String name, String allocation, String devices,
      String... expected) {
    return Arguments.of(name, allocation, devices, expected);
  }
}
