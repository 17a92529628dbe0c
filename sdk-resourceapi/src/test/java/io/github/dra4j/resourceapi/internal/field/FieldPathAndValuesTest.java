package io.github.dra4j.resourceapi.internal.field;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Field paths and refused values as the API server's messages print them. */
class FieldPathAndValuesTest {

  @Test
  void pathsPrintLikeGoFieldPaths() {
    FieldPath spec = FieldPath.root("spec");
    assertThat(spec.child("devices").index(0).child("name")).hasToString("spec.devices[0].name");
    assertThat(spec.child("devices").index(3).child("attributes").key("gpu.example.com/model"))
        .hasToString("spec.devices[3].attributes[gpu.example.com/model]");
    assertThat(FieldPath.root("metadata", "labels")).hasToString("metadata.labels");
    assertThat(spec.child("a", "b").index(1).index(2)).hasToString("spec.a.b[1][2]");
    assertThat(spec.key("with space")).hasToString("spec[with space]");
    assertThat(FieldPath.NONE).hasToString("<nil>");
    assertThat(FieldPath.root("")).hasToString("[]");
    assertThat(spec.child("")).hasToString("spec[]");
    assertThat(spec.child("x")).isEqualTo(FieldPath.root("spec", "x"));
  }

  @Test
  void stringsAreQuotedLikeStrconvQuote() {
    assertThat(GoValues.quote("GPU-0")).isEqualTo("\"GPU-0\"");
    assertThat(GoValues.quote("a\"b\\c")).isEqualTo("\"a\\\"b\\\\c\"");
    assertThat(GoValues.quote("\u0007\b\f\n\r\t\u000b")).isEqualTo("\"\\a\\b\\f\\n\\r\\t\\v\"");
    assertThat(GoValues.quote("\u0000\u001b\u007f")).isEqualTo("\"\\x00\\x1b\\x7f\"");
    assertThat(GoValues.quote("\u0085\u00ad")).isEqualTo("\"\\u0085\\u00ad\"");
    assertThat(GoValues.quote("Māori 日本 😀")).isEqualTo("\"Māori 日本 😀\"");
    assertThat(GoValues.quote("\u2028\u00a0")).isEqualTo("\"\\u2028\\u00a0\"");
    assertThat(GoValues.quote("\ud800x")).isEqualTo("\"\ufffdx\"");
    assertThat(GoValues.quote("\udb80\udc00")).isEqualTo("\"\\U000f0000\"");
    assertThat(GoValues.quote("<&>")).isEqualTo("\"<&>\"");
  }

  @Test
  void valuesPrintAsErrorBodyPrintsThem() {
    assertThat(GoValues.print("x")).isEqualTo("\"x\"");
    assertThat(GoValues.print(-5L)).isEqualTo("-5");
    assertThat(GoValues.print(7)).isEqualTo("7");
    assertThat(GoValues.print(true)).isEqualTo("true");
    assertThat(GoValues.print(null)).isEqualTo("null");
    assertThat(GoValues.print(new GoValues.Raw("{`nodeName`}"))).isEqualTo("{`nodeName`}");
    assertThat(GoValues.print(List.of("a", "b"))).isEqualTo("[\"a\",\"b\"]");
    assertThat(GoValues.print(List.of())).isEqualTo("[]");
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("zeta", 1);
    map.put("alpha", List.of(true));
    assertThat(GoValues.print(map)).isEqualTo("{\"alpha\":[true],\"zeta\":1}");
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("Key", "a<b");
    fields.put("Operator", "In");
    fields.put("Values", null);
    assertThat(GoValues.print(new GoValues.Struct(fields)))
        .isEqualTo("{\"Key\":\"a\\u003cb\",\"Operator\":\"In\",\"Values\":null}");
    assertThat(GoValues.print(1.5)).isEqualTo("1.5");
    assertThat(GoValues.print(1e6)).isEqualTo("1e+06");
    assertThat(GoValues.print(123456.0)).isEqualTo("123456");
    assertThat(GoValues.json(1e21).text()).isEqualTo("1e+21");
    assertThat(GoValues.json(1e20).text()).isEqualTo("100000000000000000000");
    assertThat(GoValues.json(1.5e-7).text()).isEqualTo("1.5e-7");
  }

  @Test
  void typedStringsPrintAsJson() {
    assertThat(GoValues.typed("NoSchedule").text()).isEqualTo("\"NoSchedule\"");
    assertThat(GoValues.typed("a<b>&c").text()).isEqualTo("\"a\\u003cb\\u003e\\u0026c\"");
    assertThat(GoValues.typed("\n\t\u0001\b\f").text()).isEqualTo("\"\\n\\t\\u0001\\b\\f\"");
    assertThat(GoValues.typed("é\u2028\u007f").text()).isEqualTo("\"é\\u2028\u007f\"");
    assertThat(GoValues.typed("\udc00").text()).isEqualTo("\"\\ufffd\"");
  }

  @Test
  void goSliceSyntaxForMessagesThatFormatIt() {
    assertThat(GoValues.stringSlice(List.of("a", "b"))).isEqualTo("[]string{\"a\", \"b\"}");
    assertThat(GoValues.stringSlice(new ArrayList<>())).isEqualTo("[]string(nil)");
  }
}
