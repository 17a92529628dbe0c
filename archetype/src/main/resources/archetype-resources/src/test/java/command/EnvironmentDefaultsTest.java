package ${package}.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** The command line's settings from flags and environment, checked before anything starts. */
class EnvironmentDefaultsTest {

  private static OptionSpec option(String command, String name) {
    return DriverMain.commandLine().getSubcommands().get(command).getCommandSpec()
        .findOption(name);
  }

  @Test
  void eachFlagOfTheDriverDefaultsToItsVariable() {
    EnvironmentDefaults defaults = new EnvironmentDefaults(Map.of("DEVICE_COUNT", " 7 ",
        "TLS_CERT_FILE", "/tls/tls.crt", "DRIVER_NAME", ""));

    assertThat(defaults.defaultValue(option("kubelet-plugin", "--device-count"))).isEqualTo("7");
    assertThat(defaults.defaultValue(option("webhook", "--tls-cert-file")))
        .isEqualTo("/tls/tls.crt");
    assertThat(defaults.defaultValue(option("webhook", "--driver-name")))
        .as("blank is unset").isNull();
    assertThat(EnvironmentDefaults.variable(option("webhook", "--tls-private-key-file")))
        .isEqualTo("TLS_PRIVATE_KEY_FILE");
  }

  @Test
  void everyFlagNamesTheVariableItDefaultsTo() {
    for (String command : List.of("kubelet-plugin", "webhook")) {
      List<OptionSpec> options = DriverMain.commandLine().getSubcommands().get(command)
          .getCommandSpec().options().stream().filter(o -> !o.usageHelp() && !o.versionHelp())
          .toList();
      assertThat(options).as(command).hasSizeGreaterThan(2).allSatisfy(option ->
          assertThat(String.join(" ", option.description()))
              .contains("env " + EnvironmentDefaults.variable(option)));
    }
  }

  @Test
  void malformedSettingsStopTheCommandNamingEveryOne() {
    // The driver name is the command's own setting, checked first; the server's settings are the
    // SDK's, all named in one line.
    StringWriter nameErr = new StringWriter();
    CommandLine nameLine = DriverMain.commandLine();
    nameLine.setErr(new PrintWriter(nameErr, true));
    assertThat(nameLine.execute("webhook", "--driver-name", "Not_A_Name")).isEqualTo(2);
    assertThat(nameErr.toString()).contains("DRIVER_NAME=\"Not_A_Name\"");

    StringWriter serverErr = new StringWriter();
    CommandLine serverLine = DriverMain.commandLine();
    serverLine.setErr(new PrintWriter(serverErr, true));
    assertThat(serverLine.execute("webhook", "--webhook-port", "https", "--metrics-port", "x"))
        .isEqualTo(2);
    assertThat(serverErr.toString()).contains(
        "WEBHOOK_PORT=\"https\": want a port from 0 to 65535", "METRICS_PORT=\"x\"");

    StringWriter tlsErr = new StringWriter();
    CommandLine tlsLine = DriverMain.commandLine();
    tlsLine.setErr(new PrintWriter(tlsErr, true));
    assertThat(tlsLine.execute("webhook")).isEqualTo(2);
    assertThat(tlsErr.toString()).contains("TLS_CERT_FILE is required",
        "TLS_PRIVATE_KEY_FILE is required");
  }

  @Test
  void theDaemonSetsCommandLineReadsItsSettingsFromTheEnvironmentAsTheFlagsWould() {
    // kubelet-plugin alone runs without picocli: the same settings, the same message.
    CommandLine line = DriverMain.commandLine();
    StringWriter flagErr = new StringWriter();
    line.setErr(new PrintWriter(flagErr, true));
    int flagStatus = line.execute("kubelet-plugin", "--device-count", "many", "--driver-name",
        "Not_A_Name", "--node-name", "");

    PrintStream err = System.err;
    ByteArrayOutputStream envErr = new ByteArrayOutputStream();
    int envStatus;
    try {
      System.setErr(new PrintStream(envErr, true, StandardCharsets.UTF_8));
      envStatus = KubeletPluginCommand.run(Map.of("DEVICE_COUNT", " many ",
          "DRIVER_NAME", "Not_A_Name", "NODE_NAME", " "));
    } finally {
      System.setErr(err);
    }

    assertThat(flagStatus).isEqualTo(2);
    assertThat(envStatus).isEqualTo(2);
    // dra4j-logging writes to stderr too: the version line the command logs first is left out
    String envMessage = envErr.toString(StandardCharsets.UTF_8).lines()
        .filter(printed -> !printed.endsWith(" kubelet-plugin starting\""))
        .collect(java.util.stream.Collectors.joining("\n")).trim();
    assertThat(envMessage).isEqualTo(flagErr.toString().trim())
        .contains("DEVICE_COUNT=\"many\"", "DRIVER_NAME=\"Not_A_Name\"", "NODE_NAME is required");
  }
}
