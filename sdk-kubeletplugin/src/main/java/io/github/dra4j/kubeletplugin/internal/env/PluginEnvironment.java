package io.github.dra4j.kubeletplugin.internal.env;

import io.github.dra4j.core.name.NameRules;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.function.Function;
import java.util.function.Predicate;

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
 * @param metricsPort {@value #METRICS_PORT}: the Prometheus endpoint's port, -1 for none, 0 for a
 *     random one
 * @param kubeconfig {@value #KUBECONFIG}: the API client's kubeconfig file; unset means in-cluster
 * @param qps {@value #KUBE_API_QPS}: requests per second the API client may make on average
 * @param burst {@value #KUBE_API_BURST}: requests the API client may make at once above the rate
 */
public record PluginEnvironment(Optional<String> nodeName, Optional<String> podUid,
    Optional<Path> registrarDirectory, Optional<Path> pluginsDirectory, Optional<Path> cdiRoot,
    OptionalInt healthcheckPort, OptionalInt metricsPort, Optional<Path> kubeconfig,
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
      PLUGINS_DIRECTORY, CDI_ROOT, HEALTHCHECK_PORT, METRICS_PORT, KUBECONFIG, KUBE_API_QPS,
      KUBE_API_BURST);

  /**
   * Reads the variables.
   *
   * @param environment the process environment, such as {@code System.getenv()}
   * @return the settings found
   * @throws IllegalArgumentException listing every malformed variable as {@code NAME="value":
   *     why}
   */
  public static PluginEnvironment read(Map<String, String> environment) {
    List<String> problems = new ArrayList<>();
    Reader reader = new Reader(environment, problems);
    PluginEnvironment settings = new PluginEnvironment(
        reader.text(NODE_NAME),
        reader.text(POD_UID).filter(uid -> reader.check(POD_UID, uid, NameRules.uid(uid))),
        reader.absolutePath(REGISTRAR_DIRECTORY),
        reader.absolutePath(PLUGINS_DIRECTORY),
        reader.absolutePath(CDI_ROOT),
        reader.port(HEALTHCHECK_PORT),
        reader.port(METRICS_PORT),
        reader.text(KUBECONFIG).map(Path::of),
        reader.positiveDecimal(KUBE_API_QPS),
        reader.positiveInteger(KUBE_API_BURST));
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(String.join("; ", problems));
    }
    return settings;
  }

  /** Reads one variable at a time, collecting problems. */
  private record Reader(Map<String, String> environment, List<String> problems) {

    Optional<String> text(String name) {
      String value = environment.get(name);
      return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
    }

    boolean check(String name, String value, Optional<String> problem) {
      problem.ifPresent(p -> problems.add(describe(name, value) + ": " + p));
      return problem.isEmpty();
    }

    Optional<Path> absolutePath(String name) {
      return text(name).filter(value -> check(name, value, value.startsWith("/")
          && value.indexOf('\0') < 0 ? Optional.empty()
          : Optional.of("want an absolute path"))).map(value -> Path.of(value).normalize());
    }

    OptionalInt port(String name) {
      return optionalInt(parsed(name, Integer::parseInt, p -> p >= -1 && p <= 65535,
          "want a port from 0 to 65535, or -1 for none"));
    }

    OptionalInt positiveInteger(String name) {
      return optionalInt(parsed(name, Integer::parseInt, n -> n > 0,
          "want a whole number above 0"));
    }

    OptionalDouble positiveDecimal(String name) {
      Optional<Double> value = parsed(name, Double::parseDouble,
          n -> n > 0 && Double.isFinite(n), "want a number above 0");
      return value.isPresent() ? OptionalDouble.of(value.get()) : OptionalDouble.empty();
    }

    /** A number from a variable: empty if unset, or if malformed (then reported). */
    private <T> Optional<T> parsed(String name, Function<String, T> parse, Predicate<T> valid,
        String want) {
      Optional<String> value = text(name);
      if (value.isEmpty()) {
        return Optional.empty();
      }
      try {
        T number = parse.apply(value.get());
        if (valid.test(number)) {
          return Optional.of(number);
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      problems.add(describe(name, value.get()) + ": " + want);
      return Optional.empty();
    }

    private static OptionalInt optionalInt(Optional<Integer> value) {
      return value.isPresent() ? OptionalInt.of(value.get()) : OptionalInt.empty();
    }

    private static String describe(String name, String value) {
      return name + "=\"" + value + "\"";
    }
  }
}
