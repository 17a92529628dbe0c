package io.github.dra4j.kubeletplugin.internal.env;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.HttpClientUtils;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.github.dra4j.core.file.BoundedFileReader;
import io.github.dra4j.kubeletplugin.PluginStartException;
import io.github.dra4j.kubeletplugin.internal.setup.Deployment;
import io.github.dra4j.kubeletplugin.internal.setup.Deployment.Setting;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.ObjectMapper;

/**
 * Applies {@code KubeletPluginBuilder.fromEnvironment}: each variable sets its value of the {@link
 * Deployment} unless a builder call set it, and without a client one is made from the
 * environment. The one place the plugin's environment becomes options. Stateless.
 */
public final class EnvironmentOptions {

  private static final Logger LOG = LoggerFactory.getLogger(EnvironmentOptions.class);

  private EnvironmentOptions() {}

  /**
   * The deployment with the environment applied, and the API client made from it.
   *
   * @param deployment the values after the environment
   * @param ownedClient the API client made here, which the plugin then owns; null if the builder
   *     has one. Its configuration is read here, so a bad kubeconfig fails the start; the client
   *     itself is made on a thread of its own while the plugin starts its sockets
   */
  public record Applied(Deployment deployment, DeferredClient ownedClient) {}

  /**
   * Applies the environment.
   *
   * @param given the deployment as the builder's calls left it
   * @param explicit the values a builder call set, which the environment does not override
   * @param driverName the driver's name, the last element of the plugin data directory
   * @param environment variable names to values
   * @return the deployment and the client made from the environment
   * @throws PluginStartException naming every malformed variable and its value, or a kubeconfig
   *     that cannot be read
   */
  public static Applied apply(Deployment given, Set<Setting> explicit, String driverName,
      Map<String, String> environment) {
    PluginEnvironment env;
    try {
      env = PluginEnvironment.read(environment);
    } catch (IllegalArgumentException e) {
      throw new PluginStartException("malformed environment: " + e.getMessage(), e);
    }
    InetSocketAddress liveness = given.livenessAddress();
    if (env.healthcheckPort().isPresent() && !explicit.contains(Setting.LIVENESS_PROBE)) {
      int port = env.healthcheckPort().getAsInt();
      liveness = port < 0 ? null : env.healthcheckAddress()
          .map(address -> new InetSocketAddress(address, port))
          .orElseGet(() -> new InetSocketAddress(port));
    }
    InetSocketAddress metrics = given.metricsAddress();
    if (env.metricsPort().isPresent() && !explicit.contains(Setting.METRICS_ENDPOINT)) {
      int port = env.metricsPort().getAsInt();
      metrics = port < 0 ? null : new InetSocketAddress(port);
    }
    Deployment deployment = new Deployment(
        pick(explicit, Setting.NODE_NAME, env.nodeName(), given.nodeName()),
        given.nodeUid(),
        pick(explicit, Setting.ROLLING_UPDATE, env.podUid(), given.rollingUpdatePodUid()),
        pick(explicit, Setting.REGISTRAR_DIRECTORY, env.registrarDirectory(),
            given.registrarDirectory()),
        pick(explicit, Setting.PLUGIN_DATA_DIRECTORY,
            env.pluginsDirectory().map(directory -> directory.resolve(driverName)),
            given.pluginDataDirectory()),
        pick(explicit, Setting.CDI_DIRECTORY, env.cdiRoot(), given.cdiDirectory()),
        given.bootIdSource(), liveness, metrics);
    if (explicit.contains(Setting.KUBE_CLIENT)) {
      return new Applied(deployment, null);
    }
    Config config = config(env);
    List<AutoCloseable> alsoClosed = new CopyOnWriteArrayList<>();
    String origin = env.kubeconfig().map(path -> PluginEnvironment.KUBECONFIG + "=" + path)
        .orElse(environment.containsKey("KUBERNETES_SERVICE_HOST")
            ? "the pod's service account (KUBERNETES_SERVICE_HOST)"
            : "fabric8's default configuration (~/.kube/config)");
    return new Applied(deployment, DeferredClient.make(() -> client(config, env, alsoClosed::add),
        config.getMasterUrl() == null ? "(unknown)" : config.getMasterUrl(),
        "dra4j-client-" + driverName, alsoClosed).from(origin));
  }

  /** The environment's value unless a call set the option or the variable is missing. */
  private static <T> T pick(Set<Setting> explicit, Setting setting, Optional<T> fromEnvironment,
      T given) {
    return explicit.contains(setting) ? given : fromEnvironment.orElse(given);
  }

  /** The largest kubeconfig read: a hundred times one with embedded certificates. */
  private static final int KUBECONFIG_LIMIT = 1 << 20;

  /** fabric8's factory of JDK HTTP clients, named so that the class loads only if present. */
  private static final String JDK_HTTP_CLIENT = "io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory";

  private static Config config(PluginEnvironment env) {
    Config config;
    if (env.kubeconfig().isPresent()) {
      String contents;
      try {
        // Bounded, and never a FIFO: the start must fail naming the file, not hang or run out
        // of memory. A link is followed (a mounted Secret's files are links).
        contents = new String(BoundedFileReader.read(env.kubeconfig().get(), KUBECONFIG_LIMIT),
            StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new PluginStartException(PluginEnvironment.KUBECONFIG + "=\""
            + env.kubeconfig().get() + "\": cannot read it: " + e, e);
      }
      try {
        config = Config.fromKubeconfig(contents);
      } catch (RuntimeException e) {
        throw new PluginStartException(PluginEnvironment.KUBECONFIG + "=\""
            + env.kubeconfig().get() + "\": not a usable kubeconfig: " + e.getMessage(), e);
      }
    } else {
      config = Config.autoConfigure(null);
    }
    return config;
  }

  private static KubernetesClient client(Config config, PluginEnvironment env,
      Consumer<AutoCloseable> alsoClosed) {
    // fabric8 would otherwise load every model class on the class path (some 600) to map any
    // kind to its type; the plugin reads each object by its type, and a watch event of a kind
    // not mapped is converted to the watched type, so none of them is needed (the metaspace this
    // saves is in docs/performance.md). A driver that deserializes objects of unknown kind
    // (Serialization.unmarshal of arbitrary YAML) with this client gets generic resources.
    KubernetesClientBuilder builder = new KubernetesClientBuilder().withConfig(config)
        .withKubernetesSerialization(new KubernetesSerialization(new ObjectMapper(), false));
    String factory = HttpClientUtils.getHttpClientFactory().getClass().getName();
    if (JDK_HTTP_CLIENT.equals(factory)) {
      // fabric8 would run the JDK client: the same, but it stops its selector thread on close.
      builder.withHttpClientFactory(new StoppingJdkHttpClientFactory());
    } else if (NodeAgentVertx.FACTORY.equals(factory)) {
      // fabric8 would run Vert.x with two event loops per core: the same with one.
      builder.withHttpClientFactory(NodeAgentVertx.factory(alsoClosed));
    }
    if (env.qps().isPresent() || env.burst().isPresent()) {
      // client-go's defaults for the one that is not given: 5 per second, bursts of 10.
      double qps = env.qps().orElse(5);
      int burst = env.burst().orElse(10);
      builder.withHttpClientBuilderConsumer(http -> http.addOrReplaceInterceptor(
          "dra4j-rate-limit", new RateLimiter(qps, burst)));
      LOG.debug("API client limited to {} requests/s, bursts of {}", qps, burst);
    }
    return builder.build();
  }
}
