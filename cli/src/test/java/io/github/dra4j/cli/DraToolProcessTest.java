package io.github.dra4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line as scripts run it, a separate JVM on the module's class path: exit statuses,
 * {@code -} for standard input, and {@code --version} naming the build's version and commit.
 */
class DraToolProcessTest {

  private static final String SLICES = """
      apiVersion: resource.k8s.io/v1
      kind: ResourceSlice
      metadata:
        name: node-1-gpus
      spec:
        driver: gpu.example.com
        nodeName: node-1
        pool: {name: node-1, generation: 1, resourceSliceCount: 1}
        devices:
        - name: gpu-0
          attributes:
            model: {string: A100}
        - name: gpu-1
      """;

  private static final String A100 = "device.attributes[\"gpu.example.com\"].model == \"A100\"";

  @TempDir
  Path dir;

  /** What a finished process left. */
  private record Result(int status, String out, String err) {}

  private static List<String> java(String... args) {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path")));
    String logback = System.getProperty("logback.configurationFile");
    if (logback != null) {
      command.add("-Dlogback.configurationFile=" + logback);
    }
    command.add(DraTool.class.getName());
    command.addAll(List.of(args));
    return command;
  }

  private static Result run(String stdin, String... args) throws Exception {
    Process process = new ProcessBuilder(java(args)).start();
    try (var in = process.getOutputStream()) {
      in.write(stdin.getBytes(StandardCharsets.UTF_8));
    }
    var err = new java.util.concurrent.CompletableFuture<String>();
    Thread reader = new Thread(() -> {
      try {
        err.complete(new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
      } catch (IOException e) {
        err.completeExceptionally(e);
      }
    });
    reader.start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return new Result(process.exitValue(), out, err.get(60, TimeUnit.SECONDS));
  }

  private Path slices() throws IOException {
    return Files.writeString(dir.resolve("slices.yaml"), SLICES);
  }

  @Test
  void anExpressionThatDoesNotCompileExitsOne() throws Exception {
    Result result = run("", "cel", "--slices", slices().toString(), "device.model == \"A100\"");
    assertThat(result.status()).as(result.err()).isEqualTo(1);
    assertThat(result.out()).contains("Does not compile:");
  }

  @Test
  void anExpressionFailingOnADeviceExitsOne() throws Exception {
    Result result = run("", "cel", "--slices", slices().toString(),
        "device.attributes[\"gpu.example.com\"].model == \"T4\"");
    assertThat(result.status()).as(result.err()).isEqualTo(1);
    assertThat(result.out()).contains("ERROR     gpu.example.com/node-1/gpu-1");
  }

  @Test
  void slicesFromStandardInput() throws Exception {
    Result result = run(SLICES, "cel", "--slices", "-", "device.driver == \"gpu.example.com\"");
    assertThat(result.status()).as(result.err()).isZero();
    assertThat(result.out()).contains("2 devices: 2 match");
  }

  @Test
  void theExpressionFromStandardInput() throws Exception {
    Result result = run("device.driver == \"gpu.example.com\"\n",
        "cel", "--slices", slices().toString(), "-");
    assertThat(result.status()).as(result.err()).isZero();
    assertThat(result.out()).contains("MATCH     gpu.example.com/node-1/gpu-0");
  }

  @Test
  void aMissingFileExitsOneNamingIt() throws Exception {
    Result result = run("", "cel", "--slices", dir.resolve("nope.yaml").toString(), A100);
    assertThat(result.status()).isEqualTo(1);
    assertThat(result.err().strip())
        .isEqualTo("dra4j cel: --slices: no such file: " + dir.resolve("nope.yaml"));
  }

  @Test
  void badUsageExitsTwo() throws Exception {
    assertThat(run("").status()).isEqualTo(2);
    assertThat(run("", "cel", "--slices", "-", "-").status()).isEqualTo(2);
    assertThat(run("", "apiserver", "--port", "70000").status()).isEqualTo(2);
  }

  @Test
  void everyCommandPrintsTheBuildsVersionAndCommit() throws Exception {
    String version = System.getProperty("dra4j.pom.version");
    String built = System.getProperty("dra4j.pom.outputTimestamp");
    assertThat(version).isNotBlank();
    assertThat(built).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
    String expected = "dra4j " + version + " (commit " + gitHead() + ", built " + built + ")";
    for (String[] args : List.of(new String[] {"--version"}, new String[] {"cel", "--version"},
        new String[] {"demo", "--version"}, new String[] {"apiserver", "--version"})) {
      Result result = run("", args);
      assertThat(result.status()).as(result.err()).isZero();
      assertThat(result.out()).isEqualToIgnoringNewLines(expected).endsWith(System.lineSeparator());
    }
  }

  @Test
  void theApiServerWritesItsKubeconfigToStandardOutput() throws Exception {
    Process process = new ProcessBuilder(java("apiserver", "--kubeconfig", "-")).start();
    try (BufferedReader out = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        BufferedReader err = new BufferedReader(
            new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
      String listening = err.readLine();
      assertThat(listening).startsWith("dra4j in-memory API server listening on http");
      String url = listening.substring(listening.lastIndexOf(' ') + 1).replaceAll("/$", "");
      List<String> kubeconfig = new ArrayList<>();
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        kubeconfig.add(line);
        if (line.contains(url)) {
          break;
        }
      }
      assertThat(kubeconfig).anySatisfy(line -> assertThat(line).contains("server: " + url));
    } finally {
      process.destroy();
      process.waitFor(30, TimeUnit.SECONDS);
    }
  }

  /** The commit {@code git rev-parse HEAD} names here, or "unknown" outside a git checkout. */
  private static String gitHead() throws Exception {
    Process git;
    try {
      git = new ProcessBuilder("git", "rev-parse", "HEAD").redirectErrorStream(true).start();
    } catch (IOException e) {
      return "unknown";
    }
    String out = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    return git.waitFor() == 0 ? out : "unknown";
  }
}
