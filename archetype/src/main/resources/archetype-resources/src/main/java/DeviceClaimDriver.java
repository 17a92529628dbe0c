package ${package};

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import ${package}.config.DriverConfig;
import ${package}.config.DriverConfigs;
import ${package}.devices.DeviceBackend;
import ${package}.devices.DeviceInfo;
import io.github.dra4j.cdi.spec.ContainerEdits;
import io.github.dra4j.kubeletplugin.CallContext;
import io.github.dra4j.lifecycle.ClaimDriver;
import io.github.dra4j.lifecycle.PreparedClaim;
import io.github.dra4j.resourceclaim.AllocatedDevice;
import io.github.dra4j.resourceclaim.DriverAllocation;
import io.github.dra4j.resourceclaim.config.ConfigGroup;
import io.github.dra4j.resourceclaim.config.ConfigResolver;
import io.github.dra4j.resourceclaim.config.ConfigSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The driver's work for one claim, run by the SDK's claim lifecycle (which keeps the checkpoint,
 * writes the claim's CDI spec, and repairs after crashes and reboots). Prepare resolves each
 * device's configuration (the driver's default, then the DeviceClass's, then the claim's),
 * applies a configuration that a DeviceClass or the claim gave to its devices, and says what a
 * container gets from each device: {@code DRA_DEVICE_<index>} and its {@code _UUID}, {@code
 * _MODEL}, {@code _PROFILE} and {@code _POWER_LIMIT_WATTS} variables. Unprepare resets what
 * prepare applied.
 *
 * <p>The SDK calls it for one claim at a time; the device list is immutable.
 */
public final class DeviceClaimDriver implements ClaimDriver<ClaimState> {

  private final String poolName;
  private final DeviceBackend backend;
  private final Map<String, DeviceInfo> devices;
  private final ConfigResolver<DriverConfig> configs;

  /**
   * Creates the driver of one node.
   *
   * @param driverName the DRA driver name, whose configurations are read
   * @param poolName the node's pool: the devices' pool in the ResourceSlice
   * @param backend the devices' backend
   * @param devices the devices the backend found
   */
  public DeviceClaimDriver(String driverName, String poolName, DeviceBackend backend,
      List<DeviceInfo> devices) {
    this.poolName = Objects.requireNonNull(poolName, "poolName");
    this.backend = Objects.requireNonNull(backend, "backend");
    this.devices = devices.stream().collect(Collectors.toUnmodifiableMap(DeviceInfo::name,
        Function.identity()));
    this.configs = DriverConfigs.resolver(driverName);
  }

  /**
   * The devices' backend.
   *
   * @return the backend this driver applies configurations with
   */
  public DeviceBackend backend() {
    return backend;
  }

  @Override
  public PreparedClaim<ClaimState> prepare(DriverAllocation allocation, ResourceClaim claim,
      CallContext context) throws Exception {
    Map<AllocatedDevice, ContainerEdits> edits = new LinkedHashMap<>();
    List<String> configured = new ArrayList<>();
    for (ConfigGroup<DriverConfig> group : configs.resolve(claim)) { // a bad one fails the claim
      DriverConfig config = group.config();
      for (AllocatedDevice allocated : group.devices()) {
        DeviceInfo device = device(allocated);
        if (group.source() != ConfigSource.DRIVER_DEFAULT) { // the default changes nothing
          backend.apply(device, config);
          configured.add(device.name());
        }
        edits.put(allocated, containerEdits(device, config));
      }
    }
    PreparedClaim.Builder<ClaimState> prepared = PreparedClaim.builder();
    edits.forEach(prepared::device);
    // The state records what the hardware work did, for unprepare and rollback; the SDK writes
    // the CDI spec and answers with its CDI device IDs.
    return prepared.state(new ClaimState(configured)).build();
  }

  /** What a container gets from one device; a real device adds its device nodes here. */
  private static ContainerEdits containerEdits(DeviceInfo device, DriverConfig config) {
    String prefix = "DRA_DEVICE_" + device.index();
    ContainerEdits.Builder edits = ContainerEdits.builder()
        .env(prefix, device.name())
        .env(prefix + "_UUID", device.uuid())
        .env(prefix + "_MODEL", device.model())
        .env(prefix + "_PROFILE", config.profile().name());
    if (config.powerLimitWatts() != null) {
      edits.env(prefix + "_POWER_LIMIT_WATTS", config.powerLimitWatts().toString());
    }
    return edits.build();
  }

  private DeviceInfo device(AllocatedDevice allocated) {
    if (!allocated.pool().equals(poolName)) {
      throw new IllegalArgumentException("device " + allocated.device() + " of request "
          + allocated.request() + " is in pool " + allocated.pool() + ", not in this node's pool "
          + poolName);
    }
    DeviceInfo device = devices.get(allocated.device());
    if (device == null) {
      throw new IllegalArgumentException("device " + allocated.device() + " of request "
          + allocated.request() + " is not a device of this node");
    }
    return device;
  }

  @Override
  public void unprepare(DriverAllocation allocation, ClaimState state, CallContext context)
      throws Exception {
    if (state == null) {
      return;
    }
    for (String name : state.configuredDevices()) {
      DeviceInfo device = devices.get(name);
      if (device != null) {
        backend.reset(device);
      }
    }
  }

  /**
   * Undoes a prepare that did not complete ({@code ClaimDriver} has no default for it: only the
   * driver knows what a half-done prepare leaves). Without its state (the prepare threw, or the
   * process died in it) every device of the claim on this node is reset: resetting is harmless
   * where nothing was applied.
   */
  @Override
  public void rollback(DriverAllocation allocation, Optional<ClaimState> state,
      CallContext context) throws Exception {
    if (state.isPresent()) {
      unprepare(allocation, state.get(), context);
      return;
    }
    for (AllocatedDevice allocated : allocation.devices()) {
      DeviceInfo device = devices.get(allocated.device());
      if (device != null && allocated.pool().equals(poolName)) {
        backend.reset(device);
      }
    }
  }
}
