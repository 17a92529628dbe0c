package io.github.dra4j.testing.apiserver;

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
  private final Set<String> disabledGroupVersions = new LinkedHashSet<>();
  private final Map<GroupVersionResource, List<StoredObjectTransformer>> transformers =
      new LinkedHashMap<>();
  private boolean validateResourceSlices = true;
  private int historyLimit = 10_000;
  private String kubernetesVersion = "v1.34.0";
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
   * Starts with a group-version disabled (every request on it answers 404).
   *
   * @param groupVersion e.g. {@code resource.k8s.io/v1}
   * @return this builder
   */
  public InMemoryApiServerBuilder disableGroupVersion(String groupVersion) {
    disabledGroupVersions.add(Objects.requireNonNull(groupVersion, "groupVersion"));
    return this;
  }

  /**
   * Starts with a stored-object transformer registered.
   *
   * @param resource the resource
   * @param transformer the transformer
   * @return this builder
   */
  public InMemoryApiServerBuilder transformer(GroupVersionResource resource, StoredObjectTransformer transformer) {
    transformers.computeIfAbsent(resource, r -> new ArrayList<>())
        .add(Objects.requireNonNull(transformer, "transformer"));
    return this;
  }

  /**
   * Switches ResourceSlice validation (on by default).
   *
   * @param enabled false to accept slices that break API limits
   * @return this builder
   */
  public InMemoryApiServerBuilder validateResourceSlices(boolean enabled) {
    this.validateResourceSlices = enabled;
    return this;
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
   * @param gitVersion e.g. {@code v1.35.2}
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

  boolean validateResourceSlices() {
    return validateResourceSlices;
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
