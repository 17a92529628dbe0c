package io.github.dra4j.kubeletplugin.internal.setup;

import java.net.InetSocketAddress;
import java.nio.file.Path;

/**
 * Who and where the plugin is on its node: what a DaemonSet decides, and what {@code
 * KubeletPluginBuilder.fromEnvironment} can supply. Immutable.
 *
 * @param nodeName the Node's name; empty when unset
 * @param nodeUid the Node's UID; empty to read it from the Node
 * @param rollingUpdatePodUid this pod's UID in rolling-update mode; empty when off
 * @param registrarDirectory the kubelet's plugin registration directory
 * @param pluginDataDirectory the plugin data directory; null for the plugins directory plus the
 *     driver name
 * @param cdiDirectory where the device-metadata CDI specs go
 * @param bootIdSource where the node's boot ID is read
 * @param livenessAddress where the liveness probe listens; null when off
 * @param metricsAddress where the metrics endpoint listens; null when off
 */
public record Deployment(
    String nodeName,
    String nodeUid,
    String rollingUpdatePodUid,
    Path registrarDirectory,
    Path pluginDataDirectory,
    Path cdiDirectory,
    Path bootIdSource,
    InetSocketAddress livenessAddress,
    InetSocketAddress metricsAddress) {

  /**
   * The defaults: no node, no rolling update, no probe and no metrics.
   *
   * @param registrarDirectory the kubelet's registration directory
   * @param cdiDirectory the CDI spec directory
   * @param bootIdSource where the boot ID is read
   * @return the deployment
   */
  public static Deployment defaults(Path registrarDirectory, Path cdiDirectory, Path bootIdSource) {
    return new Deployment("", "", "", registrarDirectory, null, cdiDirectory, bootIdSource, null,
        null);
  }

  /**
   * This deployment with another {@link #nodeName}.
   *
   * @param value the new value
   * @return the new deployment
   */
  public Deployment withNodeName(String value) {
    return new Deployment(value, nodeUid, rollingUpdatePodUid, registrarDirectory,
        pluginDataDirectory, cdiDirectory, bootIdSource, livenessAddress, metricsAddress);
  }

  /**
   * This deployment with another {@link #nodeUid}.
   *
   * @param value the new value
   * @return the new deployment
   */
  public Deployment withNodeUid(String value) {
    return new Deployment(nodeName, value, rollingUpdatePodUid, registrarDirectory,
        pluginDataDirectory, cdiDirectory, bootIdSource, livenessAddress, metricsAddress);
  }

  /**
   * This deployment with another {@link #rollingUpdatePodUid}.
   *
   * @param value the new value
   * @return the new deployment
   */
  public Deployment withRollingUpdatePodUid(String value) {
    return new Deployment(nodeName, nodeUid, value, registrarDirectory, pluginDataDirectory,
        cdiDirectory, bootIdSource, livenessAddress, metricsAddress);
  }

  /**
   * This deployment with another {@link #registrarDirectory}.
   *
   * @param value the new value
   * @return the new deployment
   */
  public Deployment withRegistrarDirectory(Path value) {
    return new Deployment(nodeName, nodeUid, rollingUpdatePodUid, value, pluginDataDirectory,
        cdiDirectory, bootIdSource, livenessAddress, metricsAddress);
  }

  /**
   * This deployment with another {@link #pluginDataDirectory}.
   *
   * @param value the new value
   * @return the new deployment
   */
  public Deployment withPluginDataDirectory(Path value) {
    return new Deployment(nodeName, nodeUid, rollingUpdatePodUid, registrarDirectory, value,
        cdiDirectory, bootIdSource, livenessAddress, metricsAddress);
  }

  /**
   * This deployment with another {@link #cdiDirectory}.
   *
   * @param value the new value
   * @return the new deployment
   */
  public Deployment withCdiDirectory(Path value) {
    return new Deployment(nodeName, nodeUid, rollingUpdatePodUid, registrarDirectory,
        pluginDataDirectory, value, bootIdSource, livenessAddress, metricsAddress);
  }

  /**
   * This deployment with another {@link #bootIdSource}.
   *
   * @param value the new value
   * @return the new deployment
   */
  public Deployment withBootIdSource(Path value) {
    return new Deployment(nodeName, nodeUid, rollingUpdatePodUid, registrarDirectory,
        pluginDataDirectory, cdiDirectory, value, livenessAddress, metricsAddress);
  }

  /**
   * This deployment with another {@link #livenessAddress}.
   *
   * @param value the new value
   * @return the new deployment
   */
  public Deployment withLivenessAddress(InetSocketAddress value) {
    return new Deployment(nodeName, nodeUid, rollingUpdatePodUid, registrarDirectory,
        pluginDataDirectory, cdiDirectory, bootIdSource, value, metricsAddress);
  }

  /**
   * This deployment with another {@link #metricsAddress}.
   *
   * @param value the new value
   * @return the new deployment
   */
  public Deployment withMetricsAddress(InetSocketAddress value) {
    return new Deployment(nodeName, nodeUid, rollingUpdatePodUid, registrarDirectory,
        pluginDataDirectory, cdiDirectory, bootIdSource, livenessAddress, value);
  }

  /**
   * The values {@code fromEnvironment} can set, so that the builder can note which of them a call
   * set: a call wins over the environment, whatever the order.
   */
  public enum Setting {
    /** The API client. */
    KUBE_CLIENT,
    /** {@link #nodeName}. */
    NODE_NAME,
    /** {@link #rollingUpdatePodUid}. */
    ROLLING_UPDATE,
    /** {@link #registrarDirectory}. */
    REGISTRAR_DIRECTORY,
    /** {@link #pluginDataDirectory}. */
    PLUGIN_DATA_DIRECTORY,
    /** {@link #cdiDirectory}. */
    CDI_DIRECTORY,
    /** {@link #livenessAddress}. */
    LIVENESS_PROBE,
    /** {@link #metricsAddress}. */
    METRICS_ENDPOINT
  }
}
