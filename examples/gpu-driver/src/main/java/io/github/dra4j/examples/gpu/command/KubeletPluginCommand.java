package io.github.dra4j.examples.gpu.command;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.github.dra4j.examples.gpu.GpuDriver;
import io.github.dra4j.examples.gpu.backend.GpuBackend;
import io.github.dra4j.examples.gpu.backend.SimulatedBackend;
import io.github.dra4j.kubeletplugin.FatalErrorPolicy;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.kubeletplugin.PluginStartException;
import io.github.dra4j.picocli.PluginOptions;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code gpu-driver kubelet-plugin}: the DaemonSet's container. Finds the GPUs, starts the
 * kubelet plugin with the SDK's settings from flags or environment ({@link PluginOptions}) and
 * the driver's own ({@link DriverOptions}), publishes the devices, follows their health, and runs
 * until SIGTERM. Exit status 143 after SIGTERM (the JVM's, once the plugin has closed), 1 when the
 * plugin fails, 2 for bad settings.
 */
@Command(name = "kubelet-plugin", mixinStandardHelpOptions = true, description = "Runs the GPU driver's kubelet plugin on this node.")
public final class KubeletPluginCommand implements Callable<Integer> {

  private static final Logger LOG = LoggerFactory.getLogger(KubeletPluginCommand.class);
  private static final String DEFAULT_PLUGINS_DIRECTORY = "/var/lib/kubelet/plugins";

  @Mixin
  PluginOptions plugin;

  @Mixin
  DriverOptions driver;

  @Spec
  CommandSpec spec;

  /** An empty command, for picocli to fill. */
  public KubeletPluginCommand() {}

  /**
   * The command as picocli fills it when no flag is given, every setting from its environment
   * variable: how the DaemonSet runs it ({@code args: ["kubelet-plugin"]}), without picocli.
   *
   * @param environment variable names to values, such as {@link System#getenv()}
   * @return the command, to {@link #call()}
   */
  static KubeletPluginCommand fromEnvironment(Map<String, String> environment) {
    KubeletPluginCommand command = new KubeletPluginCommand();
    command.plugin = PluginOptions.fromEnvironment(environment);
    command.driver = DriverOptions.fromEnvironment(environment);
    return command;
  }

  @Override
  public Integer call() throws Exception {
    LOG.info("{} kubelet-plugin starting", GpuDriverMain.buildInfo());
    DriverSettings settings;
    try {
      settings = driver.settings();
    } catch (IllegalArgumentException e) {
      err().println("gpu-driver kubelet-plugin: " + e.getMessage());
      return 2;
    }
    Map<String, String> environment = plugin.asEnvironment();
    String nodeName = environment.get("NODE_NAME");
    if (nodeName == null) {
      err().println("gpu-driver kubelet-plugin: NODE_NAME (--node-name)"
          + " is required: the node's name, from the downward API's spec.nodeName");
      return 2;
    }
    Path dataDirectory = Path.of(environment.getOrDefault("KUBELET_PLUGINS_DIRECTORY_PATH",
        DEFAULT_PLUGINS_DIRECTORY)).resolve(settings.driverName());
    try (GpuDriver gpus = GpuDriver.create(settings.driverName(), nodeName,
        openBackend(settings, nodeName, dataDirectory), settings.layout(),
        settings.deviceStatus());
        KubeletPlugin running = plugin.applyTo(KubeletPlugin.builder(gpus.lifecycle())
            .driverName(settings.driverName())
            .apiServer(a -> a.withClaimStatus(settings.deviceStatus()))
            .observability(o -> o.withJvmMetrics(true))
            .shutdown(s -> s.withFatalErrorPolicy(FatalErrorPolicy.EXIT))).start()) {
      gpus.attach(running);
      // Said once the API server holds the devices, not before: until then, and while publishing
      // fails, the readiness probe answers NOT_SERVING and the plugin logs why.
      running.whenPublished(() -> LOG.info("{} serves {} devices on node {}",
          settings.driverName(), gpus.catalog().devices().size(), nodeName));
      running.awaitTermination();
    } catch (PluginStartException e) {
      // An expected condition (a directory not mounted, a bad setting): the message names the
      // path and the setting; a stack trace would only bury it.
      err().println("gpu-driver kubelet-plugin: " + e.getMessage());
      return 1;
    }
    LOG.info("{} stopped", settings.driverName());
    return 0;
  }

  /**
   * Runs the command from the environment alone, as {@code main} does for the DaemonSet's command
   * line, with the exit statuses picocli gives: the command's own, or 1 when it throws.
   *
   * @param environment variable names to values, such as {@link System#getenv()}
   * @return the exit status
   */
  static int run(Map<String, String> environment) {
    try {
      return fromEnvironment(environment).call();
    } catch (Exception e) {
      if (expected(e)) {
        // An API server that cannot be reached, a socket or file that cannot be made: the message
        // names the URL or path and the setting; a stack trace would only hide it.
        LOG.error("gpu-driver kubelet-plugin failed: {}", e.getMessage());
      } else {
        LOG.error("gpu-driver kubelet-plugin failed", e);
      }
      return 1;
    }
  }

  /** Whether a failure is a condition of the node or cluster rather than a bug. */
  private static boolean expected(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof PluginStartException || t instanceof KubernetesClientException
          || t instanceof java.io.IOException) {
        return true;
      }
    }
    return false;
  }

  /** Where bad settings are reported: picocli's error stream, or standard error without it. */
  private PrintWriter err() {
    return spec != null ? spec.commandLine().getErr()
        : new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
  }

  /**
   * Opens the backend the settings name.
   *
   * @param settings the driver's settings
   * @param nodeName the node's name
   * @param dataDirectory the plugin's data directory, where the default health file is
   * @return the backend
   * @throws Exception if it cannot be opened
   */
  static GpuBackend openBackend(DriverSettings settings, String nodeName, Path dataDirectory)
      throws Exception {
    return switch (settings.backend()) {
      case SIMULATED -> new SimulatedBackend(nodeName, settings.numDevices(),
          settings.healthFile().orElse(dataDirectory.resolve("gpu-health.json")));
      case NVML -> NvmlBackends.open(settings);
    };
  }
}
