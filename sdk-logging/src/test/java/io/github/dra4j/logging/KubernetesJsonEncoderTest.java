package io.github.dra4j.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class KubernetesJsonEncoderTest {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final Map<String, String> MDC = Map.of("requestID", "17",
      "method", "k8s.io.kubelet.pkg.apis.dra.v1.DRAPlugin/NodePrepareResources",
      "claim", "default/gpu-1:6f0c");

  private final KubernetesJsonEncoder encoder = new KubernetesJsonEncoder();

  private String line(Level level, String message, Throwable throwable, Map<String, String> mdc,
      Object... pairs) {
    return new String(encoder.encode(Events.event(level, message, throwable, mdc, pairs)),
        StandardCharsets.UTF_8);
  }

  @Test
  void anInfoLineHasTheKubeletsKeysInItsOrderWithTheMdcAndPairsFlat() {
    String line = line(Level.INFO, "Prepared claim", null, MDC,
        "devices", List.of("node-1/gpu-0", "node-1/gpu-1"), "durationMs", 12.5);

    assertThat(line).endsWith("}\n").doesNotContain("\n{");
    JsonNode node = JSON.readTree(line);
    assertThat(fieldNames(node)).containsExactly("ts", "logger", "msg", "v", "claim", "method",
        "requestID", "devices", "durationMs");
    // milliseconds since the epoch, microseconds as the fraction
    assertThat(node.get("ts").isFloatingPointNumber()).isTrue();
    assertThat(node.get("ts").decimalValue()).isEqualByComparingTo("1795869121943.123");
    assertThat(node.get("logger").asString())
        .isEqualTo("io.github.dra4j.kubeletplugin.internal.node.NodeService");
    assertThat(node.get("msg").asString()).isEqualTo("Prepared claim");
    assertThat(node.get("v").isInt()).isTrue();
    assertThat(node.get("v").asInt()).isZero();
    assertThat(node.get("claim").asString()).isEqualTo("default/gpu-1:6f0c");
    assertThat(node.get("requestID").asString()).isEqualTo("17");
    assertThat(node.get("devices").isArray()).isTrue();
    assertThat(node.get("devices").get(1).asString()).isEqualTo("node-1/gpu-1");
    assertThat(node.get("durationMs").asDouble()).isEqualTo(12.5);
  }

  @Test
  void verbosityFollowsKlogAndAnErrorHasNoneButItsErrLast() {
    assertThat(JSON.readTree(line(Level.DEBUG, "d", null, Map.of())).get("v").asInt())
        .isEqualTo(4);
    assertThat(JSON.readTree(line(Level.TRACE, "t", null, Map.of())).get("v").asInt())
        .isEqualTo(5);
    JsonNode warning = JSON.readTree(line(Level.WARN, "w", null, Map.of()));
    assertThat(warning.get("v").asInt()).isZero();
    assertThat(warning.get("level").asString()).isEqualTo("warning");
    assertThat(JSON.readTree(line(Level.INFO, "i", null, Map.of())).has("level")).isFalse();

    IOException cause = new IOException("/var/run/cdi: No such file or directory");
    JsonNode error = JSON.readTree(line(Level.ERROR, "write CDI spec failed",
        new UncheckedIOException("write spec", cause), MDC, "attempt", 3));
    assertThat(error.has("v")).isFalse();
    assertThat(error.has("level")).isFalse();
    assertThat(fieldNames(error)).endsWith("attempt", "stacktrace", "err");
    assertThat(error.get("err").asString())
        .isEqualTo("java.io.UncheckedIOException: write spec");
    assertThat(error.get("stacktrace").asString())
        .startsWith("java.io.UncheckedIOException: write spec\n\tat ")
        .contains("Caused by: java.io.IOException: /var/run/cdi: No such file or directory")
        .doesNotEndWith("\n");
    assertThat(JSON.readTree(line(Level.ERROR, "no exception", null, Map.of())).has("err"))
        .isFalse();
  }

  @Test
  void specialCharactersAreEscapedAndTheLineStaysOneLine() {
    String message = "quote \" backslash \\ newline \n tab \t bell \u0007 ünïcödé ✓";
    String line = line(Level.INFO, message, null, Map.of("key \"x\"", "line\r\nbreak"),
        "nul", "\u0000");

    assertThat(line.indexOf('\n')).isEqualTo(line.length() - 1);
    assertThat(line).contains("\\u0007", "\\u0000", "\\r\\n");
    JsonNode node = JSON.readTree(line);
    assertThat(node.get("msg").asString()).isEqualTo(message);
    assertThat(node.get("key \"x\"").asString()).isEqualTo("line\r\nbreak");
    assertThat(node.get("nul").asString()).isEqualTo("\u0000");
  }

  @Test
  void aPairNamedLikeAKubernetesKeyHidesNothing() {
    Map<String, String> mdc = new LinkedHashMap<>();
    mdc.put("msg", "from the MDC");
    mdc.put("claim", "default/a:1");
    JsonNode node = JSON.readTree(line(Level.INFO, "the message", null, mdc,
        "ts", "pair", "claim", "default/b:2", "v", 9, "n", null, "ok", true,
        "nan", Double.NaN, "big", new java.math.BigDecimal("1e400")));

    assertThat(node.get("msg").asString()).isEqualTo("the message");
    assertThat(node.get("msg_").asString()).isEqualTo("from the MDC");
    assertThat(node.get("ts").isNumber()).isTrue();
    assertThat(node.get("ts_").asString()).isEqualTo("pair");
    assertThat(node.get("claim").asString()).isEqualTo("default/a:1");
    assertThat(node.get("claim_").asString()).isEqualTo("default/b:2");
    assertThat(node.get("v").asInt()).isZero();
    assertThat(node.get("v_").asInt()).isEqualTo(9);
    assertThat(node.get("n").isNull()).isTrue();
    assertThat(node.get("ok").asBoolean()).isTrue();
    assertThat(node.get("nan").asString()).isEqualTo("NaN");
    assertThat(node.get("big").isNumber()).isTrue();
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.propertyNames().forEach(names::add);
    return names;
  }
}
