package ${package}.config;

/** How a device trades speed for power, the {@code profile} of a {@link DriverConfig}. */
public enum Profile {
  /** The device's own balance (the default). */
  Balanced,
  /** Highest clocks; may draw up to the power limit. */
  Performance,
  /** Lowest power; at most {@link DriverConfig#POWER_SAVING_MAX_WATTS} watts. */
  PowerSaving
}
