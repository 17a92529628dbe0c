package io.github.dra4j.testing.apiserver;

import io.github.dra4j.resourceapi.FeatureGates;
import io.github.dra4j.resourceapi.ResourceApiRules;
import io.github.dra4j.resourceapi.ServedVersion;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;

/** Configures an {@link InMemoryApiServer}. Not thread-safe; use from one thread. */
public final class InMemoryApiServerBuilder {

  private int port;
  private final Set<String> disabledGroupVersions = offByDefault();
  private final Map<GroupVersionResource, List<StoredObjectTransformer>> transformers = new LinkedHashMap<>();
  private boolean enforceApiRules = true;
  private FeatureGates featureGates = FeatureGates.kubernetes136();
  private int historyLimit = 10_000;
  private String kubernetesVersion = "v1.36.0";
  private Random random = new SecureRandom();

  InMemoryApiServerBuilder() {}

  /**
   * Sets the TCP port.
   *
   * @param port 0 (default) for a free port, otherwise 1..65535
   * @return this builder
   */
  public InMemoryApiServerBuilder port(int port) {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port must be 0..65535: " + port);
    }
    this.port = port;
    return this;
  }

  /**
   * Starts with a group-version disabled (every request on it answers 404), as a server that does
   * not serve it (an older release, or one started with {@code --runtime-config} turning it off).
   *
   * @param groupVersion e.g. {@code resource.k8s.io/v1}
   * @return this builder
   */
  public InMemoryApiServerBuilder disableGroupVersion(String groupVersion) {
    disabledGroupVersions.add(Objects.requireNonNull(groupVersion, "groupVersion"));
    return this;
  }

  /**
   * Starts with a group-version served that Kubernetes 1.36 does not serve by default, as a
   * server started with {@code --runtime-config=resource.k8s.io/v1beta1=true} (by default only
   * {@code resource.k8s.io/v1} is served; {@code v1beta2}, {@code v1beta1} and {@code v1alpha3}
   * are off).
   *
   * @param groupVersion e.g. {@code resource.k8s.io/v1beta2}
   * @return this builder
   */
  public InMemoryApiServerBuilder enableGroupVersion(String groupVersion) {
    disabledGroupVersions.remove(Objects.requireNonNull(groupVersion, "groupVersion"));
    return this;
  }

  /** The resource.k8s.io versions 1.36 serves only when asked to. */
  private static Set<String> offByDefault() {
    Set<String> off = new LinkedHashSet<>();
    Set<String> on = new LinkedHashSet<>();
    for (ServedVersion served : ResourceApiRules.servedVersions()) {
      (served.enabledByDefault() ? on : off).add(served.groupVersion());
    }
    off.removeAll(on);
    return off;
  }

  /**
   * Starts with a stored-object transformer registered.
   *
   * @param resource the resource
   * @param transformer the transformer
   * @return this builder
   */
  public InMemoryApiServerBuilder transformer(GroupVersionResource resource,
      StoredObjectTransformer transformer) {
    transformers.computeIfAbsent(resource, r -> new ArrayList<>())
        .add(Objects.requireNonNull(transformer, "transformer"));
    return this;
  }

  /**
   * Switches the API server's rules for {@code resource.k8s.io} (on by default): validation with
   * the real server's field paths and messages, defaults, and the create, update and status
   * strategies (see {@link io.github.dra4j.resourceapi.ResourceApiRules}).
   *
   * @param enabled false to store what clients send as it is, e.g. to plant an object a real
   *     server would refuse
   * @return this builder
   */
  public InMemoryApiServerBuilder enforceApiRules(boolean enabled) {
    this.enforceApiRules = enabled;
    return this;
  }

  /**
   * Sets the DRA feature gates (default: Kubernetes 1.36's defaults). A field behind a gate that
   * is off is dropped on write, as the real server does.
   *
   * @param gates the gates, e.g. {@code FeatureGates.kubernetes136().with("DRADeviceTaints",
   *     true)}
   * @return this builder
   */
  public InMemoryApiServerBuilder featureGates(FeatureGates gates) {
    this.featureGates = Objects.requireNonNull(gates, "gates");
    return this;
  }

  /**
   * Sets DRA feature gates in kube-apiserver's {@code --feature-gates} form, on top of Kubernetes
   * 1.36's defaults.
   *
   * @param spec e.g. {@code DRADeviceTaints=true,DRAConsumableCapacity=true}
   * @return this builder
   * @throws IllegalArgumentException for an unknown gate or a bad value, naming it
   */
  public InMemoryApiServerBuilder featureGates(String spec) {
    return featureGates(FeatureGates.kubernetes136().withSpec(spec));
  }

  /**
   * Sets how many changes watches can resume across.
   *
   * @param events history size, at least 1 (default 10,000)
   * @return this builder
   */
  public InMemoryApiServerBuilder historyLimit(int events) {
    if (events < 1) {
      throw new IllegalArgumentException("historyLimit must be at least 1: " + events);
    }
    this.historyLimit = events;
    return this;
  }

  /**
   * Sets the version {@code /version} reports.
   *
   * @param gitVersion e.g. {@code v1.35.2} (default {@code v1.36.0}, the release whose rules the
   *     server enforces)
   * @return this builder
   */
  public InMemoryApiServerBuilder kubernetesVersion(String gitVersion) {
    if (gitVersion == null || !gitVersion.matches("v?\\d+\\.\\d+.*")) {
      throw new IllegalArgumentException(
          "kubernetesVersion must look like v1.34.0: \"" + gitVersion + "\"");
    }
    this.kubernetesVersion = gitVersion;
    return this;
  }

  /**
   * Sets the random source of {@code generateName} suffixes (seed it for reproducible names).
   *
   * @param random the source
   * @return this builder
   */
  public InMemoryApiServerBuilder generatedNameRandom(Random random) {
    this.random = Objects.requireNonNull(random, "random");
    return this;
  }

  /**
   * Creates the server (not yet listening; call {@link InMemoryApiServer#start()}).
   *
   * @return the server
   */
  public InMemoryApiServer build() {
    return new InMemoryApiServer(this);
  }

  int port() {
    return port;
  }

  Set<String> disabledGroupVersions() {
    return disabledGroupVersions;
  }

  Map<GroupVersionResource, List<StoredObjectTransformer>> transformers() {
    return transformers;
  }

  boolean enforceApiRules() {
    return enforceApiRules;
  }

  FeatureGates featureGates() {
    return featureGates;
  }

  int historyLimit() {
    return historyLimit;
  }

  String kubernetesVersion() {
    return kubernetesVersion;
  }

  Random random() {
    return random;
  }
}
