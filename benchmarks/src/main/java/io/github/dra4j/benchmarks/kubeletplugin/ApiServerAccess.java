package io.github.dra4j.benchmarks.kubeletplugin;

import java.nio.file.Path;
import java.util.Map;

/**
 * How a benchmark's driver process finds the in-memory API server, as environment variables.
 *
 * <p>A DaemonSet's pod finds the API server from fabric8's in-cluster configuration, with no file
 * to parse: {@link #inCluster} gives the same path with variables (the URL and a token where a
 * pod has its service account's token and CA). A kubeconfig ({@link #kubeconfig}) is what a
 * developer's machine uses; parsing it loads a YAML parser and, through fabric8's shared
 * serializer, some 600 model classes a pod never loads, so start-up and memory measured that way
 * overstate what a node pays. Immutable.
 *
 * @param environment the variables to set in the driver's process
 */
public record ApiServerAccess(Map<String, String> environment) {

  /**
   * Copies the variables.
   *
   * @param environment the variables to set in the driver's process
   */
  public ApiServerAccess {
    environment = Map.copyOf(environment);
  }

  /**
   * The in-cluster style: fabric8 reads the URL and token from variables and looks for neither
   * a kubeconfig nor a service account.
   *
   * @param url the API server's URL
   * @return the access
   */
  public static ApiServerAccess inCluster(String url) {
    return new ApiServerAccess(Map.of("KUBERNETES_MASTER", url,
        "KUBERNETES_AUTH_TOKEN", "benchmark",
        "KUBERNETES_AUTH_TRYKUBECONFIG", "false",
        "KUBERNETES_AUTH_TRYSERVICEACCOUNT", "false"));
  }

  /**
   * A kubeconfig file, through {@code KUBECONFIG}.
   *
   * @param file the kubeconfig
   * @return the access
   */
  public static ApiServerAccess kubeconfig(Path file) {
    return new ApiServerAccess(Map.of("KUBECONFIG", file.toString()));
  }

  /**
   * What a benchmark prints about it.
   *
   * @return for example {@code from in-cluster style variables (no kubeconfig)}
   */
  public String describe() {
    return environment.containsKey("KUBECONFIG") ? "from a kubeconfig file"
        : "from in-cluster style variables (KUBERNETES_MASTER, no kubeconfig)";
  }
}
