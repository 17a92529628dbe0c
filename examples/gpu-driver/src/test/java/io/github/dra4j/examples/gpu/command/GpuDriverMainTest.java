package io.github.dra4j.examples.gpu.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The command line builds only the command it runs, and every command for help or a typo; the
 * DaemonSet's command line, {@code kubelet-plugin} alone, runs without picocli.
 */
class GpuDriverMainTest {

  @Test
  void theDaemonSetsCommandLineRunsWithoutPicocliAndReportsBadSettingsAsPicocliWould()
      throws Exception {
    // A child JVM, so the class-load log shows what that command line loads; NODE_NAME missing
    // and a malformed NUM_DEVICES stop it before anything starts.
    ProcessBuilder builder = new ProcessBuilder(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xlog:class+load=info:stdout", "-cp", System.getProperty("java.class.path"),
        GpuDriverMain.class.getName(), "kubelet-plugin").redirectErrorStream(true);
    builder.environment().keySet().removeIf(name -> name.equals("NODE_NAME"));
    builder.environment().put("NUM_DEVICES", "eight");
    Process child = builder.start();
    String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

    assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(child.exitValue()).as(out).isEqualTo(2);
    assertThat(out).contains(GpuDriverMain.buildInfo().describe() + " kubelet-plugin starting")
        .contains("gpu-driver kubelet-plugin: NUM_DEVICES=\"eight\"")
        .contains(KubeletPluginCommand.class.getName() + " source:")
        .doesNotContain("picocli.CommandLine");
  }

  @Test
  void theDriverAndEachCommandPrintTheBuildsVersionAndCommit() throws Exception {
    String expected = "gpu-driver " + System.getProperty("dra4j.pom.version") + " (commit "
        + gitHead() + ", built ";
    for (String[] args : new String[][] {{"--version"}, {"kubelet-plugin", "--version"},
        {"webhook", "--version"}, {"demo", "--version"}}) {
      StringWriter out = new StringWriter();
      CommandLine line = GpuDriverMain.commandLine(args);
      line.setOut(new PrintWriter(out));

      assertThat(line.execute(args)).isZero();
      assertThat(out.toString()).startsWith(expected).endsWith("Z)" + System.lineSeparator());
    }
  }

  /** The commit {@code git rev-parse HEAD} names here, or "unknown" outside a git checkout. */
  private static String gitHead() throws Exception {
    Process git;
    try {
      git = new ProcessBuilder("git", "rev-parse", "HEAD").redirectErrorStream(true).start();
    } catch (java.io.IOException e) {
      return "unknown";
    }
    String out = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    return git.waitFor() == 0 ? out : "unknown";
  }

  @Test
  void aCommandLineWithFlagsGoesThroughPicocli() {
    StringWriter err = new StringWriter();
    CommandLine line = GpuDriverMain.commandLine("kubelet-plugin", "--num-devices", "eight");
    line.setErr(new PrintWriter(err));

    assertThat(line.execute("kubelet-plugin", "--num-devices", "eight")).isEqualTo(2);
    assertThat(err.toString()).contains("NUM_DEVICES=\"eight\"");
  }

  @Test
  void aDirectoryThePodDoesNotHaveIsOneLineNamingItsSettingAndNothingIsWritten(
      @TempDir Path root) throws Exception {
    Path registrar = root.resolve("not-mounted/plugins_registry");
    Path cdi = Files.createDirectories(root.resolve("cdi"));
    StringWriter err = new StringWriter();
    String[] args = {"kubelet-plugin", "--node-name", "node-1",
        "--kubelet-registrar-directory-path", registrar.toString(),
        "--kubelet-plugins-directory-path", Files.createDirectories(root.resolve("plugins"))
            .toString(),
        "--cdi-root", cdi.toString(), "--healthcheck-port", "-1",
        "--metrics-port", "-1"};
    CommandLine line = GpuDriverMain.commandLine(args);
    line.setErr(new PrintWriter(err));

    assertThat(line.execute(args)).isEqualTo(1);
    assertThat(err.toString().strip()).isEqualTo("gpu-driver kubelet-plugin: kubelet plugin"
        + " registration directory " + registrar + " does not exist (set by"
        + " KubeletPluginBuilder.registrarDirectory or KUBELET_REGISTRAR_DIRECTORY_PATH): mount"
        + " it into the pod or change the setting");
    try (Stream<Path> written = Files.list(cdi)) {
      assertThat(written).as("no CDI spec written").isEmpty();
    }
  }

  @Test
  void aNamedCommandIsTheOnlyOneBuilt() {
    CommandLine line = GpuDriverMain.commandLine("kubelet-plugin", "--num-devices", "2");

    assertThat(line.getSubcommands()).containsOnlyKeys("kubelet-plugin");
    Object command = line.getSubcommands().get("kubelet-plugin").getCommand();
    assertThat(command)
        .isInstanceOf(KubeletPluginCommand.class);
  }

  @Test
  void helpListsEveryCommand() {
    CommandLine line = GpuDriverMain.commandLine("--help");

    assertThat(line.getSubcommands()).containsOnlyKeys("kubelet-plugin", "webhook", "demo");
    assertThat(line.getUsageMessage()).contains("kubelet-plugin", "webhook", "demo");
  }

  @Test
  void aMistypedCommandIsAnsweredWithTheCommandsThereAre() {
    StringWriter err = new StringWriter();
    CommandLine line = GpuDriverMain.commandLine("kubelet-plugn");
    line.setErr(new PrintWriter(err));

    int status = line.execute("kubelet-plugn");

    assertThat(status).isEqualTo(2);
    assertThat(err.toString()).contains("kubelet-plugn").contains("kubelet-plugin");
  }
}
