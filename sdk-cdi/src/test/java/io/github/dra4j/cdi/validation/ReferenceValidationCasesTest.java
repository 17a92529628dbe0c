package io.github.dra4j.cdi.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.dra4j.cdi.codec.SpecCodec;
import io.github.dra4j.cdi.codec.SpecParseException;
import io.github.dra4j.cdi.spec.CdiSpec;
import io.github.dra4j.cdi.spec.CdiVersion;
import io.github.dra4j.cdi.spec.MinimumVersion;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The rules a container runtime applies to a spec file it loads, one case each (version, kind,
 * device names, environment, device nodes, mounts, hooks, ...): specs read from JSON/YAML text and
 * checked with the runtime rules, as a runtime loading the file would.
 */
class ReferenceValidationCasesTest {
  private static final String BASE_DEVICE = "{\"name\":\"dev1\",\"containerEdits\":{\"env\":[\"FOO=BAR\"]}}";

  static String spec(String version, String kind, String devices, String topEdits) {
    StringBuilder json = new StringBuilder("{");
    if (version != null) {
      json.append("\"cdiVersion\":\"").append(version).append("\",");
    }
    json.append("\"kind\":\"").append(kind).append('"');
    if (devices != null) {
      json.append(",\"devices\":[").append(devices).append(']');
    }
    if (topEdits != null) {
      json.append(",\"containerEdits\":").append(topEdits);
    }
    return json.append('}').toString();
  }

  static String base(String version) {
    return spec(version, "vendor.com/device", BASE_DEVICE, null);
  }

  /** A base spec whose dev1 has the given edits instead of env FOO=BAR. */
  static String deviceEdits(String version, String edits) {
    return spec(version, "vendor.com/device",
        "{\"name\":\"dev1\",\"containerEdits\":" + edits + "}", null);
  }

  static List<SpecProblem> problems(String text) throws SpecParseException {
    CdiSpec spec = SpecCodec.standard().read(text.getBytes(StandardCharsets.UTF_8), "t.json");
    return SpecValidator.problems(spec, ValidationRules.RUNTIME);
  }

  static void accepted(String text) throws SpecParseException {
    assertThat(problems(text)).as(text).isEmpty();
  }

  static void rejected(String text, String reason) throws SpecParseException {
    assertThat(problems(text)).as(text).isNotEmpty();
    assertThat(problems(text).get(0).reason()).as(text).contains(reason);
  }

  @Test
  void case01BaseSpecIsAccepted() throws Exception {
    accepted(base("0.3.0"));
  }

  @Test
  void case02MissingVersionIsRejected() throws Exception {
    List<SpecProblem> problems = problems(base(null));
    assertThat(problems.get(0).field()).isEqualTo("cdiVersion");
    assertThat(problems.get(0).reason()).isEqualTo("invalid version \"\"");
  }

  @ParameterizedTest
  @ValueSource(strings = {"0.0.0", "1.2.0", "not-a-version", "vv1.1.0", "1.1", "0.3.0 "})
  void case03UnknownVersionsAreRejected(String version) throws Exception {
    rejected(base(version), "invalid version \"" + version + "\"");
  }

  @ParameterizedTest
  @ValueSource(strings = {"0.3.0", "0.4.0", "0.5.0", "0.6.0", "0.7.0", "0.8.0", "1.0.0", "1.1.0"})
  void case03bEveryReleasedVersionIsAcceptedForTheBaseSpec(String version) throws Exception {
    accepted(base(version));
  }

  @Test
  void case04LeadingVIsStripped() throws Exception {
    accepted(base("v1.1.0"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"0.1.0", "v0.2.0"})
  void case05PreReleaseVersionsAreBelowTheMinimum(String version) throws Exception {
    rejected(base(version), "the spec version must be at least v0.3.0");
  }

  @Test
  void case06AdditionalGidsNeed070() throws Exception {
    String edits = "{\"additionalGids\":[1]}";
    rejected(spec("0.6.0", "vendor.com/device", BASE_DEVICE, edits),
        "the spec version must be at least v0.7.0");
    accepted(spec("0.7.0", "vendor.com/device", BASE_DEVICE, edits));
    accepted(spec("1.1.0", "vendor.com/device", BASE_DEVICE, edits));
  }

  @Test
  void case07KindWithoutSlashHasAnEmptyVendor() throws Exception {
    rejected(spec("0.3.0", "vendor.comdevice", BASE_DEVICE, null), "invalid vendor. empty name");
  }

  @Test
  void case08VendorMustEndAlphanumeric() throws Exception {
    rejected(spec("0.3.0", "vendor.com-/device", BASE_DEVICE, null),
        "should end with a letter or digit");
  }

  @Test
  void case09ClassMustEndAlphanumericAndHaveNoSlash() throws Exception {
    rejected(spec("0.3.0", "vendor.com/device=", BASE_DEVICE, null),
        "should end with a letter or digit");
    rejected(spec("0.3.0", "vendor.com/foo/bar", BASE_DEVICE, null), "invalid character '/'");
  }

  @Test
  void case10DotInClassNeeds060() throws Exception {
    rejected(spec("0.5.0", "vendor.com/class.sub", BASE_DEVICE, null),
        "the spec version must be at least v0.6.0");
    accepted(spec("0.6.0", "vendor.com/class.sub", BASE_DEVICE, null));
  }

  @Test
  void case11SpecWithoutDevicesIsRejected() throws Exception {
    List<SpecProblem> problems = problems(
        spec("0.3.0", "vendor.com/device", null, "{\"env\":[\"A=B\"]}"));
    assertThat(problems).extracting(SpecProblem::reason)
        .containsExactly("invalid spec, no devices");
  }

  @Test
  void case12DeviceWithEmptyEditsIsRejected() throws Exception {
    rejected(deviceEdits("0.3.0", "{}"), "invalid device, empty device edits");
    rejected(spec("0.3.0", "vendor.com/device", "{\"name\":\"dev1\"}", null),
        "invalid device, empty device edits");
    assertThat(problems(deviceEdits("0.3.0", "{}")).get(0).device()).isEqualTo("dev1");
  }

  @Test
  void case13DuplicateDeviceNamesAreRejected() throws Exception {
    String dev = "{\"name\":\"%s\",\"containerEdits\":{\"env\":[\"A=B\"]}}";
    String three = String.format(dev, "dev1") + "," + String.format(dev, "dev2") + ","
        + String.format(dev, "dev1");
    rejected(spec("0.3.0", "vendor.com/device", three, null),
        "invalid spec, multiple device \"dev1\"");
    String distinct = String.format(dev, "dev1") + "," + String.format(dev, "dev2") + ","
        + String.format(dev, "dev3");
    accepted(spec("0.3.0", "vendor.com/device", distinct, null));
  }

  @ParameterizedTest
  @ValueSource(strings = {"a dev ice", "-dev", "dev:"})
  void case14BadDeviceNamesAreRejected(String name) throws Exception {
    List<SpecProblem> problems = problems(spec("0.3.0", "vendor.com/device",
        "{\"name\":\"" + name + "\",\"containerEdits\":{\"env\":[\"A=B\"]}}", null));
    assertThat(problems).hasSize(1);
    assertThat(problems.get(0).field()).isEqualTo("devices[0].name");
    assertThat(problems.get(0).device()).isEqualTo(name);
  }

  @Test
  void case14DeviceNameWithInnerPunctuationIsAccepted() throws Exception {
    accepted(spec("0.3.0", "vendor.com/device",
        "{\"name\":\"dev_1:2.3\",\"containerEdits\":{\"env\":[\"A=B\"]}}", null));
  }

  @Test
  void case15LeadingDigitNeeds050() throws Exception {
    String device = "{\"name\":\"0\",\"containerEdits\":{\"env\":[\"A=B\"]}}";
    rejected(spec("0.3.0", "vendor.com/device", device, null),
        "the spec version must be at least v0.5.0");
    accepted(spec("0.5.0", "vendor.com/device", device, null));
    CdiSpec spec = SpecCodec.standard().read(
        spec("0.5.0", "vendor.com/device", device, null).getBytes(StandardCharsets.UTF_8), "t");
    assertThat(MinimumVersion.of(spec)).isEqualTo(CdiVersion.V0_5_0);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "=foo", "FOOBAR"})
  void case16BadEnvEntriesAreRejected(String entry) throws Exception {
    List<SpecProblem> problems = problems(deviceEdits("0.3.0", "{\"env\":[\"" + entry + "\"]}"));
    assertThat(problems).singleElement().satisfies(p -> {
      assertThat(p.reason()).startsWith("invalid environment variable \"" + entry + "\"");
      assertThat(p.field()).isEqualTo("devices[0].containerEdits.env[0]");
      assertThat(p.device()).isEqualTo("dev1");
    });
  }

  @Test
  void case16EmptyValueAndPlainEntriesAreAccepted() throws Exception {
    accepted(deviceEdits("0.3.0", "{\"env\":[\"FOO=\",\"BAR=BARVALUE1\"]}"));
  }

  @Test
  void case17DeviceNodes() throws Exception {
    rejected(deviceEdits("0.3.0", "{\"deviceNodes\":[{\"path\":\"\"}]}"),
        "invalid (empty) device path");
    rejected(
        deviceEdits("0.3.0", "{\"deviceNodes\":[{\"path\":\"/dev/vendorctl\",\"type\":\"f\"}]}"),
        "invalid type \"f\"");
    rejected(deviceEdits("0.3.0",
        "{\"deviceNodes\":[{\"path\":\"/dev/x\",\"type\":\"b\",\"permissions\":\"to land\"}]}"),
        "invalid permissions \"to land\"");
    accepted(deviceEdits("0.3.0", "{\"deviceNodes\":[{\"path\":\"/dev/null\"}]}"));
    accepted(deviceEdits("0.3.0", "{\"deviceNodes\":[{\"path\":\"/dev/null\",\"type\":\"c\"}]}"));
    accepted(deviceEdits("0.3.0",
        "{\"deviceNodes\":[{\"path\":\"/dev/null\",\"type\":\"b\",\"permissions\":\"rwm\"}]}"));
    rejected(deviceEdits("0.3.0",
        "{\"deviceNodes\":[{\"path\":\"/dev/null\",\"permissions\":\"none\"}]}"),
        "invalid permissions \"none\"");
  }

  @Test
  void case18Mounts() throws Exception {
    rejected(deviceEdits("0.3.0", "{\"mounts\":[{\"hostPath\":\"\",\"containerPath\":\"/x\"}]}"),
        "invalid mount, empty host path");
    rejected(deviceEdits("0.3.0", "{\"mounts\":[{\"hostPath\":\"/x\",\"containerPath\":\"\"}]}"),
        "invalid mount, empty container path");
    String tmpfs = "{\"mounts\":[{\"hostPath\":\"tmpfs\",\"containerPath\":\"/usr/local/container\","
        + "\"type\":\"tmpfs\",\"options\":[\"ro\",\"mode=755\",\"size=65536k\"]}]}";
    accepted(deviceEdits("0.4.0", tmpfs));
    rejected(deviceEdits("0.3.0", tmpfs), "the spec version must be at least v0.4.0");
  }

  @ParameterizedTest
  @ValueSource(strings = {"prestart", "createRuntime", "createContainer", "startContainer",
      "poststart", "poststop"})
  void case19EveryHookNameIsAccepted(String hookName) throws Exception {
    accepted(deviceEdits("0.3.0",
        "{\"hooks\":[{\"hookName\":\"" + hookName + "\",\"path\":\"/usr/bin/hook\"}]}"));
  }

  @Test
  void case19BadHooksAreRejected() throws Exception {
    rejected(deviceEdits("0.3.0",
        "{\"hooks\":[{\"hookName\":\"misCreateRuntime\",\"path\":\"/usr/bin/hook\"}]}"),
        "invalid hook name \"misCreateRuntime\"");
    rejected(deviceEdits("0.3.0", "{\"hooks\":[{\"hookName\":\"prestart\",\"path\":\"\"}]}"),
        "invalid hook \"prestart\" with empty path");
    List<SpecProblem> env = problems(deviceEdits("0.3.0",
        "{\"hooks\":[{\"hookName\":\"prestart\",\"path\":\"/h\",\"env\":[\"=value2\"]}]}"));
    assertThat(env).singleElement()
        .satisfies(
            p -> assertThat(p.field()).isEqualTo("devices[0].containerEdits.hooks[0].env[0]"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"foo.bar", "/", ""})
  void case20AcceptedClosIds(String closId) throws Exception {
    accepted(deviceEdits("0.7.0", "{\"intelRdt\":{\"closID\":\"" + closId + "\"}}"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"foo/bar", ".", "..", "foo\\nbar"})
  void case20RejectedClosIds(String closId) throws Exception {
    rejected(deviceEdits("0.7.0", "{\"intelRdt\":{\"closID\":\"" + closId + "\"}}"),
        "invalid ClosID");
  }

  @Test
  void case20ClosIdOf4096CharactersIsRejected() throws Exception {
    rejected(deviceEdits("0.7.0", "{\"intelRdt\":{\"closID\":\"" + "a".repeat(4096) + "\"}}"),
        "invalid ClosID");
    accepted(deviceEdits("0.7.0", "{\"intelRdt\":{\"closID\":\"" + "a".repeat(4095) + "\"}}"));
  }

  @Test
  void case21NetDevices() throws Exception {
    String one = "{\"netDevices\":[{\"hostInterfaceName\":\"eno1\",\"name\":\"netdev0\"}]}";
    accepted(deviceEdits("1.1.0", one));
    rejected(deviceEdits("1.0.0", one), "the spec version must be at least v1.1.0");
    rejected(deviceEdits("1.1.0",
        "{\"netDevices\":[{\"hostInterfaceName\":\"\",\"name\":\"netdev0\"}]}"),
        "invalid (empty) host interface name");
    rejected(
        deviceEdits("1.1.0", "{\"netDevices\":[{\"hostInterfaceName\":\"eno1\",\"name\":\"\"}]}"),
        "invalid (empty) container interface name");
    rejected(
        deviceEdits("1.1.0", "{\"netDevices\":[{\"hostInterfaceName\":\"eno1\",\"name\":\"a0\"},"
            + "{\"hostInterfaceName\":\"eno1\",\"name\":\"a1\"}]}"),
        "duplicate host interface name");
    rejected(
        deviceEdits("1.1.0", "{\"netDevices\":[{\"hostInterfaceName\":\"eno1\",\"name\":\"a0\"},"
            + "{\"hostInterfaceName\":\"eno2\",\"name\":\"a0\"}]}"),
        "duplicate container interface");
  }

  @Test
  void case22UnknownKeysAreRejectedAtParseTime() {
    String topLevel = base("0.3.0").replace("{\"cdiVersion\"",
        "{\"xyzzy\":\"garbled\",\"cdiVersion\"");
    assertThatThrownBy(() -> problems(topLevel))
        .isInstanceOf(SpecParseException.class).hasMessageContaining("unknown field \"xyzzy\"");
    String yaml = """
        cdiVersion: "0.7.0"
        kind: "vendor.com/device"
        devices:
          - name: "dev1"
            containerEdits:
              intelRdt:
                closID: "c1"
                enableCMT: true
        """;
    assertThatThrownBy(() -> problems(yaml))
        .isInstanceOf(SpecParseException.class)
        .hasMessageContaining("unknown field \"enableCMT\"")
        .hasMessageContaining("devices[0].containerEdits.intelRdt");
  }

  @Test
  void case22EmptyFileAndEmptyObjectAreRejected() throws Exception {
    assertThatThrownBy(() -> problems("")).isInstanceOf(SpecParseException.class)
        .hasMessageContaining("empty file");
    assertThatThrownBy(() -> problems(" \n")).isInstanceOf(SpecParseException.class);
    List<SpecProblem> problems = problems("{}");
    assertThat(problems).extracting(SpecProblem::field)
        .containsExactly("cdiVersion", "kind", "devices");
  }
}
