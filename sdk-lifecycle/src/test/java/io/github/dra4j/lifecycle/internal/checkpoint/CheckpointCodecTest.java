package io.github.dra4j.lifecycle.internal.checkpoint;

import static io.github.dra4j.lifecycle.internal.checkpoint.CheckpointSamples.UID_1;
import static io.github.dra4j.lifecycle.internal.checkpoint.CheckpointSamples.UID_2;
import static io.github.dra4j.lifecycle.internal.checkpoint.CheckpointSamples.dataText;
import static io.github.dra4j.lifecycle.internal.checkpoint.CheckpointSamples.edited;
import static io.github.dra4j.lifecycle.internal.checkpoint.CheckpointSamples.rich;
import static io.github.dra4j.lifecycle.internal.checkpoint.CheckpointSamples.sha256;
import static io.github.dra4j.lifecycle.internal.checkpoint.CheckpointSamples.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.dra4j.resourceclaim.AllocatedDevice;
import io.github.dra4j.resourceclaim.RequestReference;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** The file format: layout, checksum, leniency, and what makes a file unreadable. */
class CheckpointCodecTest {

  @Test
  void richDataReadsBackEqual() throws Exception {
    CheckpointData data = rich();

    CheckpointData read = CheckpointCodec.decode(CheckpointCodec.encode(data));

    assertThat(read).isEqualTo(data);
    ClaimEntry entry = read.entry(UID_1).orElseThrow();
    assertThat(entry.phase()).isEqualTo(ClaimPhase.PREPARE_COMPLETED);
    assertThat(entry.allocation().get(0).consumedCapacity())
        .containsExactly(Map.entry("cores", "2"), Map.entry("memory", "10Gi"));
    assertThat(entry.devices().get(0).cdiDeviceIds())
        .containsExactly("gpu.example.com/gpu=a", "gpu.example.com/gpu=b");
    assertThat(entry.cdiSpec().get("x").get("nested").get(1).doubleValue()).isEqualTo(2.5);
    assertThat(entry.driverState().get("empty").isObject()).isTrue();
  }

  @Test
  void theSameDataGivesTheSameBytes() throws Exception {
    byte[] first = CheckpointCodec.encode(rich());
    byte[] second = CheckpointCodec.encode(rich());
    byte[] again = CheckpointCodec.encode(CheckpointCodec.decode(first));

    assertThat(second).isEqualTo(first);
    assertThat(again).isEqualTo(first);
  }

  @Test
  void layoutIsIndentedWithKeysInFixedOrderAndEndsWithNewline() {
    String file = text(CheckpointCodec.encode(rich()));

    assertThat(file).startsWith("{\n  \"apiVersion\": \"checkpoint.dra4j.io/v1\",\n"
        + "  \"kind\": \"PreparedClaims\",\n  \"checksum\": \"sha256:");
    assertThat(file).contains("\",\n  \"data\": {\n    \"claims\": {\n      \"" + UID_1 + "\": {\n"
        + "        \"phase\": \"PrepareCompleted\",\n        \"namespace\": \"ml-team\",\n");
    assertThat(file).endsWith("\n  }\n}\n").doesNotContain("\r").doesNotContain("\t");
    assertInOrder(file, "\"" + UID_1 + "\"", "\"phase\"", "\"namespace\"", "\"name\"",
        "\"bootId\"", "\"allocation\"", "\"request\"", "\"pool\"", "\"device\"", "\"shareId\"",
        "\"adminAccess\"", "\"consumedCapacity\"", "\"cores\"", "\"memory\"", "\"devices\"",
        "\"requests\"", "\"pool\"", "\"device\"", "\"cdiDeviceIds\"", "\"shareId\"",
        "\"cdiSpec\"", "\"driverState\"", "\"" + UID_2 + "\"");
  }

  private static void assertInOrder(String text, String... parts) {
    int at = 0;
    for (String part : parts) {
      int found = text.indexOf(part, at);
      assertThat(found).as("%s after offset %d in%n%s", part, at, text).isGreaterThanOrEqualTo(0);
      at = found + part.length();
    }
  }

  @Test
  void nullsEmptyCollectionsAndFalseFlagsAreLeftOut() {
    CheckpointData data = CheckpointData.empty().with(UID_1, ClaimEntry.started("ns", "n", "b",
        List.of(new AllocatedDevice(RequestReference.parse("r"),
            "p", "d", null, false, null, null))));

    String file = text(CheckpointCodec.encode(data));

    assertThat(file).contains("\"request\": \"r\"", "\"pool\": \"p\"", "\"device\": \"d\"")
        .doesNotContain("shareId", "adminAccess", "consumedCapacity", "\"devices\"", "cdiSpec",
            "driverState", "null");
    assertThat(text(CheckpointCodec.encode(CheckpointData.empty())))
        .as("the claims section, also when empty: a file without it is corrupt")
        .endsWith("\"data\": {\n    \"claims\": {}\n  }\n}\n");
  }

  @Test
  void claimsAreWrittenSortedByUid() {
    CheckpointData data = CheckpointData.empty().with("c", CheckpointSamples.started("c"))
        .with("a", CheckpointSamples.started("a")).with("b", CheckpointSamples.started("b"));

    assertInOrder(text(CheckpointCodec.encode(data)), "\"a\": {", "\"b\": {", "\"c\": {");
  }

  @Test
  void aClaimBeingUnpreparedIsWrittenAsCompletedWithAFlagAndReadsBack() throws Exception {
    ClaimEntry completed = rich().entry(UID_1).orElseThrow();
    CheckpointData data = CheckpointData.empty().with(UID_1, completed.unprepareStarted());

    String file = text(CheckpointCodec.encode(data));

    assertThat(file).contains("""
        "phase": "PrepareCompleted",
                "unprepareStarted": true,
        """);
    ClaimEntry read = CheckpointCodec.decode(file.getBytes(StandardCharsets.UTF_8))
        .entry(UID_1).orElseThrow();
    assertThat(read.phase()).isEqualTo(ClaimPhase.UNPREPARE_STARTED);
    assertThat(read).isEqualTo(completed.unprepareStarted());
    assertThat(read.driverState()).isEqualTo(completed.driverState());
    assertThatThrownBy(() -> read.unprepareStarted()).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void checksumIsTheSha256OfTheDataBytesAsInTheFile() {
    String file = text(CheckpointCodec.encode(rich()));

    assertThat(CheckpointSamples.checksumOf(file)).isEqualTo(sha256(dataText(file)));
  }

  @Test
  void membersTheReaderDoesNotKnowAreIgnoredAndTheChecksumStillHolds() throws Exception {
    String file = text(CheckpointCodec.encode(rich()))
        .replace("\"kind\": \"PreparedClaims\",", "\"kind\": \"PreparedClaims\", \"extra\": [1],")
        .replace("\"claims\": {", "\"more\": {\"a\": 1}, \"claims\": {")
        .replace("\"phase\": \"PrepareStarted\",", "\"phase\": \"PrepareStarted\", \"x\": 1,")
        .replace("\"device\": \"gpu-0\",", "\"device\": \"gpu-0\", \"health\": \"Healthy\",");
    byte[] bytes = CheckpointSamples.withChecksum(file).getBytes(StandardCharsets.UTF_8);

    assertThat(CheckpointCodec.decode(bytes)).isEqualTo(rich());
  }

  @Test
  void missingOptionalMembersGetTheirDefaults() throws Exception {
    byte[] bytes = CheckpointCodec.encode(
        CheckpointData.empty().with(UID_1, CheckpointSamples.started("n")));

    AllocatedDevice device = CheckpointCodec.decode(bytes).entry(UID_1).orElseThrow()
        .allocation().get(0);

    assertThat(device.adminAccess()).isFalse();
    assertThat(device.shareId()).isNull();
    assertThat(device.bindingConditions()).isEmpty();
  }

  @Test
  void anAllocatedDeviceWithoutItsRequestIsCorrupt() throws Exception {
    byte[] bytes = edited(CheckpointData.empty().with(UID_1, CheckpointSamples.started("n")),
        "\"request\": \"gpu\",", "");

    assertThatThrownBy(() -> CheckpointCodec.decode(bytes))
        .isInstanceOf(CheckpointFormatException.class)
        .hasMessageContaining("request");
  }

  static Stream<Arguments> unreadable() {
    CheckpointData one = CheckpointData.empty().with(UID_1, rich().entry(UID_1).orElseThrow());
    String uid = "claims[\"" + UID_1 + "\"]";
    return Stream.of(
        Arguments.of(edited(one, "PrepareCompleted", "Foo"),
            uid + ".phase: unknown value \"Foo\""),
        Arguments.of(edited(one, "\"namespace\": \"ml-team\",", ""), uid + ".namespace: required"),
        Arguments.of(edited(one, "\"bootId\": \"" + CheckpointSamples.BOOT + "\",", ""),
            uid + ".bootId: required"),
        Arguments.of(edited(one, "\"pool\": \"node-1\",", "\"pool\": \"\","),
            uid + ".allocation[1].pool: required"),
        Arguments.of(edited(one, "\"device\": \"nic-0\"", "\"device\": 7"),
            uid + ".allocation[1].device: must be a string, is 7"),
        Arguments.of(edited(one, "[\n              \"nic\"\n            ]", "\"nic\""),
            uid + ".devices[1].requests: must be an array, is \"nic\""),
        Arguments.of(edited(one, "\"adminAccess\": true", "\"adminAccess\": \"yes\""),
            uid + ".allocation[0].adminAccess: must be true or false, is \"yes\""),
        Arguments.of(edited(one, "\"memory\": \"10Gi\"", "\"memory\": 10"),
            uid + ".allocation[0].consumedCapacity[\"memory\"]: must be a string, is 10"),
        Arguments.of(edited(one, "\"gpu.example.com/gpu=b\"", "{}"),
            uid + ".devices[0].cdiDeviceIds[1]: must be a string, is an object"),
        Arguments.of(edited(one, "\"ml-team\"", "\"ml/team\""), uid + ".namespace: invalid value"
            + " \"ml/team\": must be a DNS label (at most 63 lower-case letters, digits or '-')"),
        Arguments.of(edited(one, "\"train.claim-1\"", "\"Train_1\""), uid + ".name: invalid value"
            + " \"Train_1\": must be a DNS subdomain (at most 253 lower-case letters, digits, '-'"
            + " or '.')"),
        Arguments.of(edited(one, UID_1, "../../etc"), "claims[\"../../etc\"]: invalid claim UID"
            + " \"../../etc\": must be 1-64 letters, digits or '-', starting and ending with a"
            + " letter or digit"),
        Arguments.of(edited(one, "\"claims\": {", "\"claims\": ["),
            "not valid JSON: Unexpected character (':' (code 58))"),
        Arguments.of(edited(one, "\"claims\": {", "\"claims\": 5, \"x\": {"),
            "claims: must be an object, is 5"),
        Arguments.of(edited(one, "PreparedClaims", "PreparedThings"),
            "kind \"PreparedThings\" is not \"PreparedClaims\""),
        Arguments.of(edited(one, "checkpoint.dra4j.io/v1", "checkpoint.dra4j.io/v9"),
            "apiVersion \"checkpoint.dra4j.io/v9\" is not one this version reads"
                + " (checkpoint.dra4j.io/v1)"),
        Arguments.of(edited(one, "\"apiVersion\": \"checkpoint.dra4j.io/v1\",", ""),
            "apiVersion: required"),
        Arguments.of(edited(one, "\"kind\": \"PreparedClaims\",", "\"kind\": 1,"),
            "kind: must be a string, is 1"),
        Arguments.of(edited(one, "\"phase\"", "\"phase\": \"x\", \"phase\""),
            "not valid JSON: Duplicate Object property \\\"phase\\\""),
        Arguments.of(edited(one, "\"phase\": \"PrepareCompleted\",",
            "\"phase\": \"PrepareStarted\", \"unprepareStarted\": true,"),
            uid + ".unprepareStarted: only a claim in phase PrepareCompleted is unprepared"),
        Arguments.of(edited(one, "\"phase\": \"PrepareCompleted\",",
            "\"phase\": \"PrepareCompleted\", \"unprepareStarted\": 1,"),
            uid + ".unprepareStarted: must be true or false, is 1"),
        Arguments.of(edited(one, "\"claims\": {", "\"claimz\": {"),
            "data.claims: required"));
  }

  @ParameterizedTest
  @MethodSource
  void unreadable(byte[] bytes, String message) {
    assertThatThrownBy(() -> CheckpointCodec.decode(bytes))
        .isInstanceOf(CheckpointFormatException.class)
        .message().startsWith(message);
  }

  @Test
  void aFlippedByteInsideDataIsAChecksumMismatch() {
    String file = text(CheckpointCodec.encode(rich()));
    String flipped = file.replace("\"ml-team\"", "\"ml-teal\"");
    String written = CheckpointSamples.checksumOf(file);

    assertThatThrownBy(() -> CheckpointCodec.decode(flipped.getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(CheckpointFormatException.class)
        .hasMessage("checksum mismatch: file says " + written + ", content is "
            + sha256(dataText(flipped)));
  }

  @Test
  void aChecksumOfTheWrongFormIsNamed() {
    String file = text(CheckpointCodec.encode(rich()));
    String bad = file.replace(CheckpointSamples.checksumOf(file), "md5:abc");

    assertThatThrownBy(() -> CheckpointCodec.decode(bad.getBytes(StandardCharsets.UTF_8)))
        .hasMessage("checksum: invalid value \"md5:abc\": must be sha256:<64 lower-case hex"
            + " digits>");
  }

  @Test
  void brokenFilesAreNamedForWhatIsWrong() {
    byte[] good = CheckpointCodec.encode(rich());
    assertThatThrownBy(() -> CheckpointCodec.decode(new byte[0])).hasMessage("empty file");
    assertThatThrownBy(() -> CheckpointCodec.decode(" \n".getBytes(StandardCharsets.UTF_8)))
        .hasMessage("no JSON value, only white space");
    assertThatThrownBy(() -> CheckpointCodec.decode("[]".getBytes(StandardCharsets.UTF_8)))
        .hasMessage("not a JSON object but an array");
    assertThatThrownBy(() -> CheckpointCodec.decode(Arrays.copyOf(good, 300)))
        .hasMessageStartingWith("not valid JSON: Unexpected end-of-input");
    byte[] trailing = (text(good) + "{}").getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(() -> CheckpointCodec.decode(trailing))
        .hasMessage("content after the JSON object: an object at line "
            + (text(good).split("\n").length + 1) + ", column 1");
    assertThatThrownBy(() -> CheckpointCodec.decode(new byte[] {(byte) 0xff, 0x00, 0x13}))
        .hasMessageStartingWith("not valid JSON: ");
  }

  @Test
  void dataNestedDeeperThanReadersAllowIsRefusedWhenEncoding() {
    ObjectNode deep = JsonNodeFactory.instance.objectNode();
    ObjectNode node = deep;
    for (int i = 0; i < 600; i++) {
      node = node.putObject("n");
    }
    CheckpointData data = CheckpointData.empty().with(UID_1,
        CheckpointSamples.started("n").completed(List.of(), null, deep));

    assertThatThrownBy(() -> CheckpointCodec.encode(data))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nesting depth");
  }

  @Test
  void readableVersionsListEveryVersionWritten() {
    assertThat(CheckpointCodec.readableApiVersions()).containsExactly("checkpoint.dra4j.io/v1");
    assertThat(CheckpointCodec.API_VERSION).isEqualTo("checkpoint.dra4j.io/v1");
  }
}
