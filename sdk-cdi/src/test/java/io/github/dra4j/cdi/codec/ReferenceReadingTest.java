package io.github.dra4j.cdi.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.dra4j.cdi.spec.CdiSpec;
import io.github.dra4j.cdi.spec.ContainerEdits;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Spec files are read as the reference library reads them: YAML (JSON included) with YAML 1.1
 * typing, its YAML-to-JSON conversion, then strict JSON decoding. Every expectation here was
 * checked against the reference library's decoder.
 */
class ReferenceReadingTest {
  private static final String SPEC = "\"cdiVersion\":\"0.3.0\",\"kind\":\"vendor.com/device\","
      + "\"devices\":[{\"name\":\"dev1\",\"containerEdits\":{\"env\":[\"A=B\"]}}]";

  private final SpecCodec codec = SpecCodec.standard();

  private CdiSpec read(String text) throws SpecParseException {
    return codec.read(text.getBytes(StandardCharsets.UTF_8), "test");
  }

  private ContainerEdits deviceEdits(String text) throws SpecParseException {
    return read(text).devices().get(0).containerEdits();
  }

  @Test
  void anchorsAliasesAndMergesWork() throws Exception {
    CdiSpec spec = read("""
        cdiVersion: "0.3.0"
        kind: "vendor.com/device"
        containerEdits: &common
          env: ["COMMON=1"]
        devices:
          - name: "dev1"
            containerEdits:
              <<: *common
              deviceNodes: [{path: "/dev/d1"}]
          - name: "dev2"
            containerEdits: *common
        """);
    assertThat(spec.devices().get(0).containerEdits().env()).containsExactly("COMMON=1");
    assertThat(spec.devices().get(0).containerEdits().deviceNodes()).hasSize(1);
    assertThat(spec.devices().get(1).containerEdits()).isEqualTo(spec.containerEdits());
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{" + SPEC + ",}",
      "{" + SPEC + "} {}",
      "{" + SPEC + "}\ngarbage: [unclosed",
      "{" + SPEC + "},",
      "{" + SPEC + "}]",
      "{" + SPEC + "} # comment",
      "{" + SPEC + "}\n---\nkind: other.com/x",
      "{" + SPEC + "}\n%YAML 1.1\n---\n",
      "\uFEFF{" + SPEC + "}",
      "--- {" + SPEC + "}",
      "{\r\n\t\"cdiVersion\": \"0.3.0\",\r\n\t\"kind\": \"vendor.com/device\",\r\n\t\"devices\":"
          + " [{\"name\": \"dev1\", \"containerEdits\": {\"env\": [\"A=B\"]}}]\r\n}\r\n"})
  void jsonIsReadAsYamlWithWhatFollowsTheObjectIgnored(String text) throws Exception {
    CdiSpec spec = read(text);
    assertThat(spec.kind()).isEqualTo("vendor.com/device");
    assertThat(spec.devices()).singleElement()
        .satisfies(d -> assertThat(d.containerEdits().env()).containsExactly("A=B"));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{" + SPEC + ",,}",
      "{," + SPEC + "}",
      "{" + SPEC + "}\n\"unterminated",
      "{" + SPEC + "}\n@x",
      "{" + SPEC + "} @x",
      "{" + SPEC + "}: x",
      "{" + SPEC + "}\n\t{}",
      "{\"kind\":\"vendor.com\\/device\"}",
      "{\"kind\":\"\\ud83d\\ude00\"}",
      "{\"kind\":\"a\u007fb\"}",
      "cdiVersion: \"0.3.0\"\n\t\nkind: \"vendor.com/device\"",
      "\tkind: x",
      "kind: *nowhere",
      "&a [*a]",
      "devices: [{name: d, containerEdits: {env: [A=B?]}}]",
      "{\"kind\":\"a\",\"kind\":\"b\"}",
      "base: &b {env: [\"A=B\"]}\ncontainerEdits:\n  <<: *b\n  env: [\"C=D\"]",
      "~: x",
      "18446744073709551615: x"})
  void contentTheReferenceRefusesIsRefused(String text) {
    assertThatThrownBy(() -> read(text)).isInstanceOf(SpecParseException.class)
        .hasMessageStartingWith("invalid CDI spec test: ");
  }

  @Test
  void tabsAreWhitespaceWhereTheReferenceSkipsThem() throws Exception {
    assertThat(read("cdiVersion:\t\"0.3.0\"\nkind: \t\"vendor.com/d\"\n").kind())
        .isEqualTo("vendor.com/d");
    assertThat(read("{\n\t  \"kind\": \"vendor.com/d\"\n}").kind()).isEqualTo("vendor.com/d");
    assertThat(read("{}\t\n").kind()).isEmpty();
    assertThat(read("{\"annotations\": {?x: y}}").annotations())
        .as("a leading ? is a key indicator").containsExactly(Map.entry("x", "true"));
  }

  @Test
  void scalarsAreTypedWithYaml11RulesAndTurnedIntoTextWhereTheSpecHasText() throws Exception {
    CdiSpec spec = read("""
        cdiVersion: 0.3
        kind: on
        annotations:
          yes: y
          octal: 0666
          hex: 0x1F
          float: 1.10
          big: 1e8
          tiny: 0.00001
          tilde: ~
          stamp: 2001-12-14
          huge: 18446744073709551616
          quoted: "0666"
          tagged: !!str 0666
          other: !custom 12
          123: key
        """);
    assertThat(spec.cdiVersion()).isEqualTo("0.3");
    assertThat(spec.kind()).isEqualTo("true");
    assertThat(spec.annotations()).containsEntry("true", "true")
        .containsEntry("octal", "438").containsEntry("hex", "31")
        .containsEntry("float", "1.1").containsEntry("big", "1e+08")
        .containsEntry("tiny", "1e-05").containsEntry("tilde", "")
        .containsEntry("stamp", "2001-12-14").containsEntry("huge", "1.8446744e+19")
        .containsEntry("quoted", "0666").containsEntry("tagged", "0666")
        .containsEntry("other", "12").containsEntry("123", "key");
    assertThat(read("{\"cdiVersion\":3,\"kind\":true}").cdiVersion()).isEqualTo("3");
    assertThat(read("{\"annotations\":{\"a\":5,\"b\":null}}").annotations())
        .containsEntry("a", "5").containsEntry("b", "");
  }

  @Test
  void numbersReadAsGoDecodesTheConvertedJson() throws Exception {
    ContainerEdits edits = deviceEdits("devices: [{name: d, containerEdits: {deviceNodes: ["
        + "{path: /x, major: 1e3, minor: 1.0, fileMode: 0666}], "
        + "additionalGids: [0x10, 0o17, 0b11, 1_000, null]}}]");
    assertThat(edits.deviceNodes().get(0).major()).isEqualTo(1000);
    assertThat(edits.deviceNodes().get(0).minor()).isEqualTo(1);
    assertThat(edits.deviceNodes().get(0).fileMode()).isEqualTo(0666);
    assertThat(edits.additionalGids()).containsExactly(16L, 15L, 3L, 1000L, 0L);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{path: /x, major: \"1\"}",
      "{path: /x, major: 1.5}",
      "{path: /x, major: 1e21}",
      "{path: /x, major: .inf}",
      "{path: /x, uid: -1}"})
  void numbersTheDecoderRefusesAreRefused(String node) {
    assertThatThrownBy(() -> read("devices: [{name: d, containerEdits: {deviceNodes: [" + node
        + "]}}]")).isInstanceOf(SpecParseException.class);
  }

  @Test
  void nullItemsBecomeZeroValuesAsInGo() throws Exception {
    assertThat(read("{\"devices\":[null]}").devices()).singleElement()
        .satisfies(d -> assertThat(d.name()).isEmpty());
    assertThat(deviceEdits("{\"devices\":[{\"name\":\"d\",\"containerEdits\":"
        + "{\"env\":[null,\"A=B\"]}}]}").env()).containsExactly("", "A=B");
  }

  @Test
  void keysMatchInAnyCaseAndTheOneSortingLastWins() throws Exception {
    assertThat(read("{\"kind\":\"a\",\"Kind\":\"b\"}").kind()).isEqualTo("a");
    assertThat(read("{\"Kind\":\"b\",\"kind\":\"a\"}").kind()).isEqualTo("a");
  }

  @Test
  void utf16WithAByteOrderMarkIsRead() throws Exception {
    byte[] utf16 = ("\uFEFF{" + SPEC + "}").getBytes(StandardCharsets.UTF_16LE);
    assertThat(codec.read(utf16, "test").kind()).isEqualTo("vendor.com/device");
    assertThatThrownBy(() -> codec.read(new byte[] {'{', '"', (byte) 0xff, '"', '}'}, "test"))
        .hasMessageContaining("not valid UTF-8");
  }

  @Test
  void documentsBuiltMostlyFromAliasesAreRefused() {
    StringBuilder yaml = new StringBuilder("a: &a [\"x\", \"x\", \"x\", \"x\", \"x\", \"x\"]\n");
    char previous = 'a';
    for (char level = 'b'; level <= 'k'; level++) {
      yaml.append(level).append(": &").append(level).append(" [");
      for (int i = 0; i < 6; i++) {
        yaml.append(i == 0 ? "" : ", ").append('*').append(previous);
      }
      yaml.append("]\n");
      previous = level;
    }
    assertThatThrownBy(() -> read(yaml.toString()))
        .hasMessageContaining("excessive aliasing");
  }

  @Test
  void errorsSayWhatIsWrong() {
    assertThatThrownBy(() -> read("{\"kind\":\"vendor.com\\/device\"}"))
        .hasMessageContaining("unknown escape character '\\/'");
    assertThatThrownBy(() -> read("kind: *nowhere"))
        .hasMessageContaining("unknown anchor 'nowhere' referenced");
    assertThatThrownBy(() -> read("a: 1\na: 2"))
        .hasMessageContaining("line 2: key \"a\" already set in map");
    assertThatThrownBy(() -> read("devices: [{name: d, containerEdits: {deviceNodes: ["
        + "{path: /x, major: .nan}]}}]"))
        .hasMessageContaining("unsupported value NaN at devices[0].containerEdits"
            + ".deviceNodes[0].major");
    assertThatThrownBy(() -> read("kind: x\n\n\t\ncdiVersion: y"))
        .hasMessageContaining("tab character that violates indentation at line 3");
    assertThatThrownBy(() -> read("---\n")).hasMessageContaining("no spec data");
    assertThatThrownBy(() -> read("[".repeat(1_100)))
        .hasMessageContaining("nested deeper than 1000 levels");
  }
}
