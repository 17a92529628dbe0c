package ${package}.config;

import io.github.dra4j.resourceclaim.config.ConfigProblem;
import io.github.dra4j.resourceclaim.config.DeviceConfig;
import java.util.ArrayList;
import java.util.List;

/**
 * The driver's device configuration, {@code apiVersion: ${driverName}/v1alpha1} and {@code kind:
 * DriverConfig}, given in a claim's or a DeviceClass's {@code
 * spec.devices.config[].opaque.parameters}.
 *
 * <pre>
 * profile: Balanced | Performance | PowerSaving   (default Balanced)
 * powerLimitWatts: 50 to 400                      (default: the device's own limit)
 * </pre>
 *
 * <p>The configuration scheme decodes it strictly (an unknown field, a wrong type or an explicit
 * null is an error), then calls {@link #normalized()} and {@link #validate()}: the kubelet plugin
 * and the admission webhook accept and refuse exactly the same configurations, in the same words.
 *
 * @param profile how the device trades speed for power; null for {@link Profile#Balanced}
 * @param powerLimitWatts the most power the device may draw; null for the device's own limit
 */
public record DriverConfig(Profile profile, Integer powerLimitWatts)
    implements DeviceConfig<DriverConfig> {

  /** The lowest power limit a claim may set, in watts. */
  public static final int MIN_POWER_LIMIT_WATTS = 50;

  /** The highest power limit a claim may set, in watts. */
  public static final int MAX_POWER_LIMIT_WATTS = 400;

  /** The highest power limit with the profile {@link Profile#PowerSaving}, in watts. */
  public static final int POWER_SAVING_MAX_WATTS = 150;

  /** The driver's configuration for a claim that gives none: Balanced, the device's own limit. */
  public static final DriverConfig DEFAULT = new DriverConfig(null, null).normalized();

  @Override
  public DriverConfig normalized() {
    return profile == null ? new DriverConfig(Profile.Balanced, powerLimitWatts) : this;
  }

  @Override
  public List<ConfigProblem> validate() {
    List<ConfigProblem> problems = new ArrayList<>();
    if (powerLimitWatts != null) {
      if (powerLimitWatts < MIN_POWER_LIMIT_WATTS || powerLimitWatts > MAX_POWER_LIMIT_WATTS) {
        problems.add(ConfigProblem.of("powerLimitWatts", "must be from " + MIN_POWER_LIMIT_WATTS
            + " to " + MAX_POWER_LIMIT_WATTS + " watts, got " + powerLimitWatts));
      } else if (profile == Profile.PowerSaving && powerLimitWatts > POWER_SAVING_MAX_WATTS) {
        problems.add(ConfigProblem.of("powerLimitWatts", "must be at most "
            + POWER_SAVING_MAX_WATTS + " watts with profile PowerSaving, got " + powerLimitWatts));
      }
    }
    return problems;
  }
}
