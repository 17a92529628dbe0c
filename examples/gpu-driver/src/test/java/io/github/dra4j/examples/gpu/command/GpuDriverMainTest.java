package io.github.dra4j.examples.gpu.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The command line builds only the command it runs, and every command for help or a typo. */
class GpuDriverMainTest {

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
