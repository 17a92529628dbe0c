package io.github.dra4j.picocli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.kubeletplugin.KubeletPluginBuilder;
import io.github.dra4j.kubeletplugin.PluginStartException;
import io.github.dra4j.lifecycle.ClaimDriver;
import io.github.dra4j.lifecycle.ClaimLifecycle;
import io.github.dra4j.lifecycle.PreparedClaim;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

class PluginOptionsTest {

  /** A driver's command with the mixin. */
  @Command(name = "test-plugin")
  static final class TestCommand {
    @Mixin
    PluginOptions plugin;
  }

  /** Prints what the mixin read, for the test that sets real environment variables. */
  public static final class PrintMain {
    public static void main(String[] args) {
      TestCommand command = new TestCommand();
      new CommandLine(command).parseArgs(args);
      System.out.print(command.plugin.asEnvironment());
    }
  }

  private static PluginOptions parse(String... args) {
    TestCommand command = new TestCommand();
    new CommandLine(command).parseArgs(args);
    return command.plugin;
  }

  @Test
  void everyVariableTheBuilderReadsHasAFlagDefaultingToIt() {
    List<String> defaults = new CommandLine(new TestCommand()).getCommandSpec().options().stream()
        .map(option -> option.defaultValueString(false))
        .map(value -> value.replaceAll("^\\$\\{env:(.*)}$", "$1"))
        .toList();

    assertThat(defaults).containsExactlyElementsOf(KubeletPluginBuilder.ENVIRONMENT_VARIABLES);
    assertThat(new CommandLine(new TestCommand()).getCommandSpec().options().stream()
        .map(o -> o.longestName()).collect(Collectors.toList()))
        .containsExactly("--node-name", "--pod-uid", "--kubelet-registrar-directory-path",
            "--kubelet-plugins-directory-path", "--cdi-root", "--healthcheck-port",
            "--healthcheck-address", "--metrics-port", "--kubeconfig", "--kube-api-qps",
            "--kube-api-burst");
  }

  @Test
  void optionsFromTheEnvironmentAreWhatPicocliFillsFromTheSameVariables() {
    // Every option the mixin declares, given once as a flag and once as its variable: the two
    // ways must agree, so an option added to the mixin cannot be missed by fromEnvironment.
    List<String> flags = new ArrayList<>();
    Map<String, String> environment = new HashMap<>();
    int i = 0;
    for (var option : new CommandLine(new TestCommand()).getCommandSpec().options()) {
      String variable = option.defaultValueString(false).replaceAll("^\\$\\{env:(.*)}$", "$1");
      String value = "value-" + i++;
      flags.add(option.longestName() + "=" + value);
      environment.put(variable, value);
    }
    environment.put("UNRELATED", "x");

    assertThat(PluginOptions.fromEnvironment(environment).asEnvironment())
        .containsExactlyEntriesOf(parse(flags.toArray(String[]::new)).asEnvironment())
        .hasSize(KubeletPluginBuilder.ENVIRONMENT_VARIABLES.size());
  }

  @Test
  void anEmptyVariableIsLeftOutAsAnUnsetOne() {
    assertThat(PluginOptions.fromEnvironment(Map.of("NODE_NAME", "", "CDI_ROOT", "/c"))
        .asEnvironment()).containsExactly(Map.entry("CDI_ROOT", "/c"));
  }

  @Test
  void flagsBecomeTheVariablesTheyStandFor() {
    PluginOptions options = parse("--node-name", "node-3", "--cdi-root", "/etc/cdi",
        "--metrics-port=0", "--kube-api-qps", "20");

    assertThat(options.asEnvironment()).containsEntry("NODE_NAME", "node-3")
        .containsEntry("CDI_ROOT", "/etc/cdi").containsEntry("METRICS_PORT", "0")
        .containsEntry("KUBE_API_QPS", "20");
  }

  @Test
  void aFlagLeftOutFallsBackToItsEnvironmentVariableAndAGivenFlagWins() throws Exception {
    ProcessBuilder builder = new ProcessBuilder(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), PrintMain.class.getName(),
        "--cdi-root", "/from/flag");
    builder.environment().put("NODE_NAME", "node-from-env");
    builder.environment().put("CDI_ROOT", "/from/env");
    builder.environment().remove("KUBECONFIG");
    Process child = builder.redirectErrorStream(true).start();
    String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();

    assertThat(out).contains("NODE_NAME=node-from-env").contains("CDI_ROOT=/from/flag")
        .doesNotContain("/from/env");
  }

  @Test
  void aMalformedFlagFailsThePluginStartNamingItsVariable() {
    PluginOptions options = parse("--metrics-port", "abc");
    KubeletPluginBuilder builder = KubeletPlugin.builder(
        ClaimLifecycle.builder(new NoDriver(), Void.class).build())
        .driverName("gpu.example.com").shutdown(s -> s.withCloseOnShutdown(false));

    assertThatThrownBy(() -> options.applyTo(builder).start())
        .isInstanceOf(PluginStartException.class)
        .hasMessageContaining("METRICS_PORT=\"abc\": want a port from 0 to 65535, or -1 for none");
  }

  /** A driver that is never called. */
  private static final class NoDriver implements ClaimDriver<Void> {
    @Override
    public PreparedClaim<Void> prepare(io.github.dra4j.resourceclaim.DriverAllocation allocation,
        io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim claim,
        io.github.dra4j.kubeletplugin.CallContext context) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void rollback(io.github.dra4j.resourceclaim.DriverAllocation allocation,
        java.util.Optional<Void> state, io.github.dra4j.kubeletplugin.CallContext context) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void unprepare(io.github.dra4j.resourceclaim.DriverAllocation allocation, Void state,
        io.github.dra4j.kubeletplugin.CallContext context) {
      throw new UnsupportedOperationException();
    }
  }
}
