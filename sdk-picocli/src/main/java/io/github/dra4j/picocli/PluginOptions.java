package io.github.dra4j.picocli;

import io.github.dra4j.kubeletplugin.KubeletPluginBuilder;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The kubelet plugin's settings as command-line flags, for a driver whose {@code main} is a
 * picocli command: add this class as a {@code @Mixin}, then {@link #applyTo} the plugin builder.
 * Each flag defaults to the environment variable of the same name that {@link
 * KubeletPluginBuilder#fromEnvironment()} reads ({@code --node-name} to {@code NODE_NAME}, {@code
 * --cdi-root} to {@code CDI_ROOT}, ...), so a DaemonSet can set either. The values are checked by
 * the plugin exactly as the variables are, and a malformed one fails its start naming the
 * variable the flag stands for. Picocli fills the fields; read them on one thread.
 *
 * <pre>{@code
 * @Command(name = "gpu-kubelet-plugin")
 * final class Main implements Callable<Integer> {
 *   @Mixin PluginOptions plugin;
 *
 *   public Integer call() throws Exception {
 *     try (KubeletPlugin p = plugin.applyTo(KubeletPlugin.builder(driver)
 *         .driverName("gpu.example.com")).start()) {
 *       p.awaitTermination();
 *     }
 *     return 0;
 *   }
 * }
 * }</pre>
 */
public final class PluginOptions {

  @Option(names = "--node-name", defaultValue = "${env:NODE_NAME}", paramLabel = "NAME", description = "The node the plugin runs on (env NODE_NAME; downward API spec.nodeName).")
  String nodeName;

  @Option(names = "--pod-uid", defaultValue = "${env:POD_UID}", paramLabel = "UID", description = "The pod's UID, which turns on rolling updates (env POD_UID; downward API "
      + "metadata.uid).")
  String podUid;

  @Option(names = "--kubelet-registrar-directory-path", defaultValue = "${env:KUBELET_REGISTRAR_DIRECTORY_PATH}", paramLabel = "DIR", description = "The kubelet's plugin registration directory "
      + "(env KUBELET_REGISTRAR_DIRECTORY_PATH; default /var/lib/kubelet/plugins_registry).")
  String registrarDirectory;

  @Option(names = "--kubelet-plugins-directory-path", defaultValue = "${env:KUBELET_PLUGINS_DIRECTORY_PATH}", paramLabel = "DIR", description = "The kubelet's plugins directory; the plugin's data directory is this plus "
      + "the driver name (env KUBELET_PLUGINS_DIRECTORY_PATH; default "
      + "/var/lib/kubelet/plugins).")
  String pluginsDirectory;

  @Option(names = "--cdi-root", defaultValue = "${env:CDI_ROOT}", paramLabel = "DIR", description = "The directory of CDI spec files (env CDI_ROOT; default /var/run/cdi).")
  String cdiRoot;

  @Option(names = "--healthcheck-port", defaultValue = "${env:HEALTHCHECK_PORT}", paramLabel = "PORT", description = "The gRPC liveness probe's port; -1 off, 0 a random "
      + "port (env HEALTHCHECK_PORT).")
  String healthcheckPort;

  @Option(names = "--healthcheck-address", defaultValue = "${env:HEALTHCHECK_ADDRESS}", paramLabel = "IP", description = "The IP address the liveness probe's port is bound to, "
      + "such as the pod's own (env HEALTHCHECK_ADDRESS; downward API status.podIP); every "
      + "address when unset.")
  String healthcheckAddress;

  @Option(names = "--metrics-port", defaultValue = "${env:METRICS_PORT}", paramLabel = "PORT", description = "The Prometheus metrics port, path /metrics; -1 off, 0 a random port "
      + "(env METRICS_PORT).")
  String metricsPort;

  @Option(names = "--kubeconfig", defaultValue = "${env:KUBECONFIG}", paramLabel = "FILE", description = "The API client's kubeconfig; in-cluster when unset (env KUBECONFIG).")
  String kubeconfig;

  @Option(names = "--kube-api-qps", defaultValue = "${env:KUBE_API_QPS}", paramLabel = "QPS", description = "Requests per second the API client may make (env KUBE_API_QPS).")
  String kubeApiQps;

  @Option(names = "--kube-api-burst", defaultValue = "${env:KUBE_API_BURST}", paramLabel = "N", description = "Requests the API client may make at once above that rate "
      + "(env KUBE_API_BURST).")
  String kubeApiBurst;

  /** Empty options, for picocli to fill. */
  public PluginOptions() {}

  /**
   * The options as picocli fills them when the command line gives no flag: each from its
   * environment variable. For a driver whose {@code main} skips picocli when its command has no
   * flags, as a DaemonSet that configures the plugin by environment runs it ({@link
   * PicocliBypass}).
   *
   * @param environment variable names to values, such as {@link System#getenv()}
   * @return options that {@link #asEnvironment()} as these variables, empty ones left out
   */
  public static PluginOptions fromEnvironment(Map<String, String> environment) {
    PluginOptions options = new PluginOptions();
    options.nodeName = environment.get("NODE_NAME");
    options.podUid = environment.get("POD_UID");
    options.registrarDirectory = environment.get("KUBELET_REGISTRAR_DIRECTORY_PATH");
    options.pluginsDirectory = environment.get("KUBELET_PLUGINS_DIRECTORY_PATH");
    options.cdiRoot = environment.get("CDI_ROOT");
    options.healthcheckPort = environment.get("HEALTHCHECK_PORT");
    options.healthcheckAddress = environment.get("HEALTHCHECK_ADDRESS");
    options.metricsPort = environment.get("METRICS_PORT");
    options.kubeconfig = environment.get("KUBECONFIG");
    options.kubeApiQps = environment.get("KUBE_API_QPS");
    options.kubeApiBurst = environment.get("KUBE_API_BURST");
    return options;
  }

  /**
   * The flags' values under the names of their environment variables, as {@link
   * KubeletPluginBuilder#fromEnvironment(Map)} takes them; flags neither given nor set in the
   * environment are left out.
   *
   * @return variable names to values, in {@link KubeletPluginBuilder#ENVIRONMENT_VARIABLES} order
   */
  public Map<String, String> asEnvironment() {
    Map<String, String> values = new LinkedHashMap<>();
    put(values, "NODE_NAME", nodeName);
    put(values, "POD_UID", podUid);
    put(values, "KUBELET_REGISTRAR_DIRECTORY_PATH", registrarDirectory);
    put(values, "KUBELET_PLUGINS_DIRECTORY_PATH", pluginsDirectory);
    put(values, "CDI_ROOT", cdiRoot);
    put(values, "HEALTHCHECK_PORT", healthcheckPort);
    put(values, "HEALTHCHECK_ADDRESS", healthcheckAddress);
    put(values, "METRICS_PORT", metricsPort);
    put(values, "KUBECONFIG", kubeconfig);
    put(values, "KUBE_API_QPS", kubeApiQps);
    put(values, "KUBE_API_BURST", kubeApiBurst);
    return values;
  }

  /**
   * Hands the flags to a plugin builder, as {@code fromEnvironment} would hand it the variables:
   * options the builder sets itself still win.
   *
   * @param builder the plugin builder
   * @return the same builder
   */
  public KubeletPluginBuilder applyTo(KubeletPluginBuilder builder) {
    return builder.fromEnvironment(asEnvironment());
  }

  private static void put(Map<String, String> values, String name, String value) {
    if (value != null && !value.isEmpty()) {
      values.put(name, value);
    }
  }
}
