package io.github.dra4j.kubeletplugin.internal.setup;

import io.github.dra4j.kubeletplugin.ApiServerOptions;
import io.github.dra4j.kubeletplugin.DraDriver;
import io.github.dra4j.kubeletplugin.HealthOptions;
import io.github.dra4j.kubeletplugin.MetadataOptions;
import io.github.dra4j.kubeletplugin.ObservabilityOptions;
import io.github.dra4j.kubeletplugin.SerializationOptions;
import io.github.dra4j.kubeletplugin.ServiceOptions;
import io.github.dra4j.kubeletplugin.ShutdownOptions;
import io.github.dra4j.kubeletplugin.SliceOptions;
import io.github.dra4j.kubeletplugin.SocketOptions;
import io.grpc.ServerInterceptor;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;

/**
 * Every option of a plugin as the builder gathered them, the environment applied: the driver, its
 * name, the deployment's values and one group per part. Immutable.
 *
 * @param driver the driver
 * @param driverName the driver's name
 * @param deployment who and where the plugin is
 * @param meterRegistry the driver's registry; null for one of the plugin's own
 * @param interceptors the driver's gRPC interceptors, in order
 * @param sockets the socket files and their servers
 * @param services what the plugin serves
 * @param serialization whether calls run one at a time
 * @param apiServer the API server's use beyond the basics
 * @param observability logs, meters, probes, Node Events
 * @param shutdown how the plugin ends
 * @param slices how slices are published
 * @param metadata device metadata
 * @param health device health
 */
public record PluginOptions(
    DraDriver driver,
    String driverName,
    Deployment deployment,
    MeterRegistry meterRegistry,
    List<ServerInterceptor> interceptors,
    SocketOptions sockets,
    ServiceOptions services,
    SerializationOptions serialization,
    ApiServerOptions apiServer,
    ObservabilityOptions observability,
    ShutdownOptions shutdown,
    SliceOptions slices,
    MetadataOptions metadata,
    HealthOptions health) {

  /** Copies the interceptors. */
  public PluginOptions {
    interceptors = List.copyOf(interceptors);
  }

  /**
   * These options with another deployment.
   *
   * @param changed the deployment
   * @return the new options
   */
  public PluginOptions withDeployment(Deployment changed) {
    return new PluginOptions(driver, driverName, changed, meterRegistry, interceptors, sockets,
        services, serialization, apiServer, observability, shutdown, slices, metadata, health);
  }
}
