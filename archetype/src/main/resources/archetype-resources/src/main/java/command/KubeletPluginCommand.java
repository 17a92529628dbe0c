package ${package}.command;

import ${package}.DeviceDriver;
import ${package}.devices.SimulatedDevices;
import io.github.dra4j.core.name.NameRules;
import io.github.dra4j.core.option.SettingsCheck;
import io.github.dra4j.kubeletplugin.FatalErrorPolicy;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.picocli.PluginOptions;
import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code kubelet-plugin}: the DaemonSet's container. Finds the node's devices, starts the kubelet
 * plugin with the SDK's settings ({@link PluginOptions}: {@code NODE_NAME}, {@code POD_UID},
 * the kubelet's directories, {@code CDI_ROOT}, {@code HEALTHCHECK_PORT} for the liveness probe,
 * {@code METRICS_PORT} for Prometheus, {@code KUBECONFIG}) and the driver's own, publishes the
 * devices, and runs until SIGTERM.
 */
@Command(name = "kubelet-plugin", mixinStandardHelpOptions = true,
    versionProvider = DriverMain.Version.class,
    defaultValueProvider = EnvironmentDefaults.class,
    description = "Runs the driver's kubelet plugin on this node.")
public final class KubeletPluginCommand implements Callable<Integer> {

  /** How many devices a node simulates unless {@code DEVICE_COUNT} says otherwise. */
  public static final int DEFAULT_DEVICE_COUNT = 4;

  private static final Logger LOG = LoggerFactory.getLogger(KubeletPluginCommand.class);
  private static final String NAME = "${artifactId} kubelet-plugin";

  @Mixin
  PluginOptions plugin;

  @Option(names = "--driver-name", paramLabel = "NAME",
      description = "The DRA driver name (env DRIVER_NAME; default " + DeviceDriver.DEFAULT_NAME
          + ").")
  String driverName;

  @Option(names = "--device-count", paramLabel = "N",
      description = "How many simulated devices the node has (env DEVICE_COUNT; default "
          + DEFAULT_DEVICE_COUNT + ").")
  String deviceCount;

  @Spec
  CommandSpec spec;

  /** Creates the command; picocli sets its options from the command line and the environment. */
  public KubeletPluginCommand() {}

  /**
   * Runs the command with every setting from the environment, without picocli: how the DaemonSet
   * runs it ({@code args: ["kubelet-plugin"]}), through {@code PicocliBypass} in {@code main}.
   * Each flag defaults to its variable anyway, so the command gets the values picocli would give
   * it, without the start-up cost of loading picocli.
   *
   * @param environment variable names to values, such as {@link System#getenv()}
   * @return the exit status, as picocli would give it
   */
  static int run(Map<String, String> environment) {
    Map<String, String> values = EnvironmentDefaults.values(environment);
    KubeletPluginCommand command = new KubeletPluginCommand();
    command.plugin = PluginOptions.fromEnvironment(values);
    command.driverName = values.get("DRIVER_NAME");
    command.deviceCount = values.get("DEVICE_COUNT");
    try {
      return command.call();
    } catch (Exception e) {
      System.err.println(DriverMain.failure(NAME, e));
      return 1;
    }
  }

  @Override
  public Integer call() throws Exception {
    LOG.info("{} kubelet-plugin starting", DriverMain.buildInfo());
    // Every malformed setting is named with its value, all in one message, before anything starts.
    SettingsCheck check = new SettingsCheck();
    String name = check.valid("DRIVER_NAME", driverName, NameRules::driverName)
        .orElse(DeviceDriver.DEFAULT_NAME);
    int devices = check.integer("DEVICE_COUNT", deviceCount, 0, SimulatedDevices.MAX_DEVICES)
        .orElse(DEFAULT_DEVICE_COUNT);
    String nodeName = check.required("NODE_NAME", plugin.asEnvironment().get("NODE_NAME"),
        "the node's name, from the downward API's spec.nodeName (--node-name)").orElse(null);
    if (!check.problems().isEmpty()) {
      PrintWriter err = spec != null ? spec.commandLine().getErr()
          : new PrintWriter(System.err, true);
      err.println(NAME + ": " + String.join("; ", check.problems()));
      return 2;
    }
    DeviceDriver driver = DeviceDriver.create(name, nodeName,
        new SimulatedDevices(nodeName, devices));
    try (KubeletPlugin running = plugin.applyTo(KubeletPlugin.builder(driver.lifecycle())
        .driverName(name)
        // a socket gone: close, exit 1, restart
        .shutdown(s -> s.withFatalErrorPolicy(FatalErrorPolicy.EXIT)))
        .start()) {
      running.publishResources(driver.resources());
      // Said once the API server holds the devices, not before: until then, and while publishing
      // fails, the readiness probe answers NOT_SERVING and the plugin logs why.
      running.whenPublished(() -> LOG.info("{} serves {} devices on node {}", name,
          driver.devices().size(), nodeName));
      running.awaitTermination(); // until SIGTERM closes the plugin
    }
    LOG.info("{} stopped", name);
    return 0;
  }
}
