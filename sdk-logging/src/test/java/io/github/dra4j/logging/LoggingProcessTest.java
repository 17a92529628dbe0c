package io.github.dra4j.logging;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * dra4j-logging in a process of its own, set up only by logback's service loader and the
 * environment: every line on standard error in the chosen format, the SDK's MDC keys on them,
 * {@code java.util.logging} records through SLF4J at the chosen level, and a bad setting named in
 * one line.
 */
class LoggingProcessTest {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final Pattern TEXT_LINE = Pattern
      .compile("[EWI]\\d{4} \\d{2}:\\d{2}:\\d{2}\\.\\d{6} [A-Za-z]+] \"[^\\n]*");

  private record Run(int status, String stdout, List<String> stderr) {}

  private static Run run(String... environment) throws Exception {
    List<String> command = List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), LoggingProbe.class.getName());
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().remove("LOG_LEVEL");
    builder.environment().remove("LOG_FORMAT");
    for (int i = 0; i < environment.length; i += 2) {
      builder.environment().put(environment[i], environment[i + 1]);
    }
    Process process = builder.start();
    process.getOutputStream().close();
    byte[] out = process.getInputStream().readAllBytes();
    byte[] err = process.getErrorStream().readAllBytes();
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    List<String> lines = new ArrayList<>(
        new String(err, StandardCharsets.UTF_8).lines().toList());
    return new Run(process.exitValue(), new String(out, StandardCharsets.UTF_8), lines);
  }

  private static List<JsonNode> parsed(List<String> lines) throws IOException {
    List<JsonNode> nodes = new ArrayList<>();
    for (String line : lines) {
      JsonNode node = JSON.readTree(line);
      assertThat(node.isObject()).as(line).isTrue();
      assertThat(node.get("ts").isNumber()).as(line).isTrue();
      assertThat(node.get("msg").isString()).as(line).isTrue();
      assertThat(node.get("logger").isString()).as(line).isTrue();
      nodes.add(node);
    }
    return nodes;
  }

  @Test
  void jsonPutsEveryLineOnStderrAsKubernetesWritesItWithTheMdcAndJulRecords() throws Exception {
    Run run = run("LOG_FORMAT", "json");

    assertThat(run.status()).isZero();
    assertThat(run.stdout()).isEmpty();
    List<JsonNode> lines = parsed(run.stderr());
    assertThat(lines).extracting(node -> node.get("msg").asString()).containsExactly(
        "Prepared claim", "a record through java.util.logging", "a warning");
    JsonNode prepared = lines.get(0);
    assertThat(prepared.get("v").asInt()).isZero();
    assertThat(prepared.get("claim").asString()).isEqualTo("default/gpu-1:0b9c");
    assertThat(prepared.get("requestID").asString()).isEqualTo("7");
    assertThat(prepared.get("devices").get(0).asString()).isEqualTo("node-1/gpu-0");
    assertThat(prepared.get("durationMs").asDouble()).isEqualTo(3.25);
    JsonNode jul = lines.get(1);
    assertThat(jul.get("logger").asString()).isEqualTo("io.grpc.internal.Probe");
    assertThat(jul.get("claim").asString()).isEqualTo("default/gpu-1:0b9c");
    JsonNode warning = lines.get(2);
    assertThat(warning.get("level").asString()).isEqualTo("warning");
    assertThat(warning.get("err").asString())
        .isEqualTo("java.lang.IllegalStateException: device \"gpu-0\" busy");
  }

  @Test
  void textIsOneKlogLinePerEventAndDebugReachesJulRecordsToo() throws Exception {
    Run run = run("LOG_LEVEL", "debug");

    assertThat(run.status()).isZero();
    assertThat(run.stderr()).allSatisfy(line -> assertThat(line).matches(TEXT_LINE));
    assertThat(run.stderr()).hasSize(5);
    assertThat(run.stderr().get(0)).startsWith("I").contains(
        "NodeService] \"Prepared claim\" claim=\"default/gpu-1:0b9c\" method=\"k8s.io.kubelet"
            + ".pkg.apis.dra.v1.DRAPlugin/NodePrepareResources\" requestID=\"7\""
            + " devices=[\"node-1/gpu-0\"] durationMs=3.25");
    assertThat(run.stderr().get(1)).contains("NodeService] \"a debug line\"");
    assertThat(run.stderr().get(2)).contains("Probe] \"a record through java.util.logging\""
        + " claim=\"default/gpu-1:0b9c\"");
    // the root's level reaches java.util.logging: FINE is DEBUG
    assertThat(run.stderr().get(3)).contains("Probe] \"a FINE record through");
    assertThat(run.stderr().get(4)).startsWith("W")
        .contains("err=\"java.lang.IllegalStateException: device \\\"gpu-0\\\" busy\"");
  }

  @Test
  void aBadLevelIsNamedInOneLineOfTheChosenFormatAndInfoIsUsed() throws Exception {
    Run run = run("LOG_LEVEL", "verbose", "LOG_FORMAT", "json");

    assertThat(run.status()).isZero();
    List<JsonNode> lines = parsed(run.stderr());
    assertThat(lines.get(0).get("logger").asString()).isEqualTo("io.github.dra4j.logging");
    assertThat(lines.get(0).get("level").asString()).isEqualTo("warning");
    assertThat(lines.get(0).get("msg").asString()).isEqualTo("LOG_LEVEL=\"verbose\" is not a"
        + " log level: want error, warn, info, debug, trace or a klog verbosity (0-3 info,"
        + " 4 debug, 5 or more trace); logging at info");
    assertThat(lines).extracting(node -> node.get("msg").asString()).containsExactly(
        lines.get(0).get("msg").asString(), "Prepared claim",
        "a record through java.util.logging", "a warning");
  }

  @Test
  void aBadFormatIsNamedInOneTextLine() throws Exception {
    Run run = run("LOG_FORMAT", "yaml", "LOG_LEVEL", "4");

    assertThat(run.stderr().get(0)).matches(TEXT_LINE).startsWith("W").endsWith(
        "logging] \"LOG_FORMAT=\\\"yaml\\\" is not a log format: want text or json; logging"
            + " as text\"");
    assertThat(run.stderr()).anySatisfy(line -> assertThat(line).contains("a debug line"));
  }
}
