package io.github.dra4j.kubelet.wire;

/**
 * The names both ends of the kubelet's plugin protocol agree on: the plugin type a DRA driver
 * registers as, the identifiers it advertises in {@code PluginInfo.supported_versions}, and the
 * gRPC service names the kubelet then calls. The kubelet picks the first advertised DRA service
 * it knows; device health is streamed from {@link #HEALTH_V1} if advertised, else {@link
 * #HEALTH_V1ALPHA1}.
 */
public final class ServiceNames {

  /** {@code PluginInfo.type} of a DRA kubelet plugin. */
  public static final String PLUGIN_TYPE = "DRAPlugin";

  /** Advertised identifier of DRA v1 (kubelet 1.34 and later). */
  public static final String DRA_V1 = "v1.DRAPlugin";

  /** Advertised identifier of DRA v1beta1 (kubelet 1.32 and later); carries no share IDs. */
  public static final String DRA_V1BETA1 = "v1beta1.DRAPlugin";

  /** gRPC service the kubelet calls for {@link #DRA_V1}. */
  public static final String DRA_V1_SERVICE = io.github.dra4j.kubelet.wire.dra.v1.DRAPluginGrpc.SERVICE_NAME;

  /** gRPC service the kubelet calls for {@link #DRA_V1BETA1}. */
  public static final String DRA_V1BETA1_SERVICE = io.github.dra4j.kubelet.wire.dra.v1beta1.DRAPluginGrpc.SERVICE_NAME;

  /**
   * Device health stream v1 (kubelet 1.37 and later): the advertised identifier is the gRPC
   * service name.
   */
  public static final String HEALTH_V1 = io.github.dra4j.kubelet.wire.health.v1.DRAResourceHealthGrpc.SERVICE_NAME;

  /**
   * Device health stream v1alpha1 (kubelet 1.34 to 1.39, alpha feature ResourceHealthStatus):
   * the advertised identifier is the gRPC service name.
   */
  public static final String HEALTH_V1ALPHA1 = io.github.dra4j.kubelet.wire.health.v1alpha1.DRAResourceHealthGrpc.SERVICE_NAME;

  private ServiceNames() {}
}
