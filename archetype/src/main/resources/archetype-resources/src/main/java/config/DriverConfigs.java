package ${package}.config;

import io.github.dra4j.resourceclaim.config.ConfigResolver;
import io.github.dra4j.resourceclaim.config.ConfigScheme;
import java.util.List;

/**
 * The driver's configuration API: one {@link ConfigScheme} that the kubelet plugin (through
 * {@link #resolver}) and the admission webhook both decode opaque parameters with.
 */
public final class DriverConfigs {

  /** The API group and version of the driver's configuration types. */
  public static final String API_VERSION = "${driverName}/v1alpha1";

  /** The kind of {@link DriverConfig}. */
  public static final String KIND = "DriverConfig";

  /** Every configuration type of the driver, decoded strictly into a {@link DriverConfig}. */
  public static final ConfigScheme<DriverConfig> SCHEME = ConfigScheme.builder(DriverConfig.class)
      .register(API_VERSION, KIND, DriverConfig.class)
      .build();

  private DriverConfigs() {}

  /**
   * Which configuration applies to which device of a claim: the driver's default, then the
   * DeviceClass's entries, then the claim's, a later entry beating an earlier one.
   *
   * @param driverName the driver name, whose opaque configurations are read
   * @return the resolver
   */
  public static ConfigResolver<DriverConfig> resolver(String driverName) {
    return ConfigResolver.of(SCHEME, driverName, List.of(DriverConfig.DEFAULT));
  }
}
