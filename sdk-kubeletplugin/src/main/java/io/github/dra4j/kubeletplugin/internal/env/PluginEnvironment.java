package io.github.dra4j.kubeletplugin.internal.env;

import io.github.dra4j.core.name.NameRules;
import io.github.dra4j.core.option.SettingsCheck;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.regex.Pattern;

/**
 * The settings a driver's DaemonSet passes as environment variables, under the names the
 * reference GPU drivers use, read and checked. A variable that is missing or empty is unset (a
 * manifest often writes {@code value: ""}); a malformed one is refused with its name and value.
 * Immutable.
 *
 * @param nodeName {@value #NODE_NAME}: the node, from the downward API's {@code spec.nodeName}
 * @param podUid {@value #POD_UID}: the pod's UID, turning on rolling updates
 * @param registrarDirectory {@value #REGISTRAR_DIRECTORY}: the kubelet's registration directory
 * @param pluginsDirectory {@value #PLUGINS_DIRECTORY}: the parent of the plugin data directory,
 *     which is this plus the driver name
 * @param cdiRoot {@value #CDI_ROOT}: the directory of CDI spec files
 * @param healthcheckPort {@value #HEALTHCHECK_PORT}: the liveness probe's port, -1 for none, 0
 *     for a random one
 * @param healthcheckAddress {@value #HEALTHCHECK_ADDRESS}: the IP address the liveness probe's
 *     port is bound to, such as the pod's own (the downward API's {@code status.podIP}, where the
 *     kubelet's gRPC probe connects); unset, every address of the pod
 * @param metricsPort {@value #METRICS_PORT}: the Prometheus endpoint's port, -1 for none, 0 for a
 *     random one
 * @param kubeconfig {@value #KUBECONFIG}: the API client's kubeconfig file; unset means in-cluster
 * @param qps {@value #KUBE_API_QPS}: requests per second the API client may make on average
 * @param burst {@value #KUBE_API_BURST}: requests the API client may make at once above the rate
 */
public record PluginEnvironment(Optional<String> nodeName, Optional<String> podUid,
    Optional<Path> registrarDirectory, Optional<Path> pluginsDirectory, Optional<Path> cdiRoot,
    OptionalInt healthcheckPort, Optional<InetAddress> healthcheckAddress,
    OptionalInt metricsPort, Optional<Path> kubeconfig,
    OptionalDouble qps, OptionalInt burst) {

  /** The node name, from the downward API. */
  public static final String NODE_NAME = "NODE_NAME";
  /** The pod UID, from the downward API: rolling updates. */
  public static final String POD_UID = "POD_UID";
  /** The kubelet's registration directory. */
  public static final String REGISTRAR_DIRECTORY = "KUBELET_REGISTRAR_DIRECTORY_PATH";
  /** The kubelet's plugins directory. */
  public static final String PLUGINS_DIRECTORY = "KUBELET_PLUGINS_DIRECTORY_PATH";
  /** The CDI spec directory. */
  public static final String CDI_ROOT = "CDI_ROOT";
  /** The liveness probe's port. */
  public static final String HEALTHCHECK_PORT = "HEALTHCHECK_PORT";
  /** The address the liveness probe's port is bound to. */
  public static final String HEALTHCHECK_ADDRESS = "HEALTHCHECK_ADDRESS";
  /** The metrics endpoint's port. */
  public static final String METRICS_PORT = "METRICS_PORT";
  /** The API client's kubeconfig file. */
  public static final String KUBECONFIG = "KUBECONFIG";
  /** The API client's request rate. */
  public static final String KUBE_API_QPS = "KUBE_API_QPS";
  /** The API client's burst. */
  public static final String KUBE_API_BURST = "KUBE_API_BURST";

  /** Every variable read, in the order of the README's table. */
  public static final List<String> VARIABLES = List.of(NODE_NAME, POD_UID, REGISTRAR_DIRECTORY,
      PLUGINS_DIRECTORY, CDI_ROOT, HEALTHCHECK_PORT, HEALTHCHECK_ADDRESS, METRICS_PORT, KUBECONFIG,
      KUBE_API_QPS, KUBE_API_BURST);

  /**
   * Reads the variables.
   *
   * @param environment the process environment, such as {@code System.getenv()}
   * @return the settings found
   * @throws IllegalArgumentException listing every malformed variable as {@code NAME="value":
   *     why}
   */
  public static PluginEnvironment read(Map<String, String> environment) {
    SettingsCheck check = new SettingsCheck();
    PluginEnvironment settings = new PluginEnvironment(
        check.text(NODE_NAME, environment.get(NODE_NAME)),
        check.valid(POD_UID, environment.get(POD_UID), NameRules::uid),
        check.absolutePath(REGISTRAR_DIRECTORY, environment.get(REGISTRAR_DIRECTORY)),
        check.absolutePath(PLUGINS_DIRECTORY, environment.get(PLUGINS_DIRECTORY)),
        check.absolutePath(CDI_ROOT, environment.get(CDI_ROOT)),
        port(check, HEALTHCHECK_PORT, environment),
        ipAddress(check, HEALTHCHECK_ADDRESS, environment.get(HEALTHCHECK_ADDRESS)),
        port(check, METRICS_PORT, environment),
        check.text(KUBECONFIG, environment.get(KUBECONFIG)).map(Path::of),
        check.decimal(KUBE_API_QPS, environment.get(KUBE_API_QPS), n -> n > 0,
            "want a number above 0"),
        check.integer(KUBE_API_BURST, environment.get(KUBE_API_BURST), 1, Integer.MAX_VALUE,
            "want a whole number above 0"));
    check.throwIfProblems();
    return settings;
  }

  private static final Pattern IPV4 = Pattern
      .compile("(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]"
          + "|1[0-9][0-9]|[1-9]?[0-9])){3}");
  private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");

  /**
   * An IP address written as one (IPv4 dotted, or IPv6 with or without brackets), never a host
   * name: a name would be looked up in DNS while the plugin starts.
   */
  private static Optional<InetAddress> ipAddress(SettingsCheck check, String name,
      String value) {
    return check.text(name, value).flatMap(text -> {
      boolean bracketed = text.startsWith("[") && text.endsWith("]");
      String literal = bracketed ? text.substring(1, text.length() - 1) : text;
      if ((!bracketed && IPV4.matcher(literal).matches()) || IPV6.matcher(literal).matches()) {
        try {
          return Optional.of(InetAddress.getByName(literal)); // a literal: no lookup
        } catch (UnknownHostException e) {
          // refused below
        }
      }
      check.refuse(name, text, "want an IP address, such as the pod's own (the downward API's"
          + " status.podIP), or nothing for every address");
      return Optional.empty();
    });
  }

  /** A port where -1 turns the server off. */
  private static OptionalInt port(SettingsCheck check, String name,
      Map<String, String> environment) {
    return check.integer(name, environment.get(name), -1, 65535,
        "want a port from 0 to 65535, or -1 for none");
  }
}
