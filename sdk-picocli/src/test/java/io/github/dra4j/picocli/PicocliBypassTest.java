package io.github.dra4j.picocli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class PicocliBypassTest {

  private final List<String> calls = new ArrayList<>();

  private int execute(String... args) {
    return PicocliBypass.execute(args, "kubelet-plugin", Map.of("NODE_NAME", "node-1"),
        environment -> {
          calls.add("environment " + environment);
          return 3;
        },
        line -> {
          calls.add("picocli " + List.of(line));
          return 4;
        });
  }

  @Test
  void theCommandAloneRunsFromTheEnvironmentItIsGiven() {
    assertThat(execute("kubelet-plugin")).isEqualTo(3);
    assertThat(calls).containsExactly("environment {NODE_NAME=node-1}");
  }

  @Test
  void everyOtherCommandLineGoesToPicocliAsItIs() {
    assertThat(execute("kubelet-plugin", "--node-name", "n")).isEqualTo(4);
    assertThat(execute()).isEqualTo(4);
    assertThat(execute("webhook")).isEqualTo(4);
    assertThat(execute("--help")).isEqualTo(4);
    assertThat(execute("KUBELET-PLUGIN")).isEqualTo(4);

    assertThat(calls).containsExactly("picocli [kubelet-plugin, --node-name, n]", "picocli []",
        "picocli [webhook]", "picocli [--help]", "picocli [KUBELET-PLUGIN]");
  }

  @Test
  void theBypassLoadsNoPicocliClassAndExitsWithTheCommandsStatus() throws Exception {
    Result bypassed = run(Map.of("NAME", "from-env", "STATUS", "5"), "serve");

    assertThat(bypassed.status()).as(bypassed.output()).isEqualTo(5);
    assertThat(bypassed.output()).contains("environment: name=from-env")
        .doesNotContain("picocli: ");
    assertThat(bypassed.loaded()).as("classes loaded on the bypass")
        .noneMatch(name -> name.startsWith("picocli."))
        .contains(PicocliBypass.class.getName());
  }

  @Test
  void anyOtherCommandLineRunsThroughPicocliWithTheSameEnvironment() throws Exception {
    Result parsed = run(Map.of("NAME", "from-env", "STATUS", "0"), "serve", "--status", "6");

    assertThat(parsed.status()).as(parsed.output()).isEqualTo(6);
    assertThat(parsed.output()).contains("picocli: name=from-env")
        .doesNotContain("environment: ");
    assertThat(parsed.loaded()).contains("picocli.CommandLine");
  }

  @Test
  void statusZeroReturnsFromMainInsteadOfExiting() throws Exception {
    Result bypassed = run(Map.of("NAME", "n"), "serve");

    assertThat(bypassed.status()).as(bypassed.output()).isZero();
    assertThat(bypassed.output()).contains("environment: name=n");
  }

  /** Runs {@link BypassMain} with the JVM's class-loading log on standard output. */
  private static Result run(Map<String, String> environment, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xlog:class+load=info:stdout", "-cp", System.getProperty("java.class.path"),
        BypassMain.class.getName()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().remove("NAME");
    builder.environment().remove("STATUS");
    builder.environment().remove("JAVA_TOOL_OPTIONS");
    builder.environment().putAll(environment);
    Process child = builder.start();
    String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
    List<String> loaded = output.lines().filter(line -> line.contains("[class,load]"))
        .map(line -> line.replaceFirst("^.*\\[class,load\\] (\\S+).*$", "$1")).toList();
    return new Result(child.exitValue(), output, loaded);
  }

  private record Result(int status, String output, List<String> loaded) {}
}
