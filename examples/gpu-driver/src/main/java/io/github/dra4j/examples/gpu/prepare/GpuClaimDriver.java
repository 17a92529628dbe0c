package io.github.dra4j.examples.gpu.prepare;

import io.fabric8.kubernetes.api.model.resource.v1.AllocatedDeviceStatus;
import io.fabric8.kubernetes.api.model.resource.v1.AllocatedDeviceStatusBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.cdi.spec.ContainerEdits;
import io.github.dra4j.examples.gpu.backend.GpuBackend;
import io.github.dra4j.examples.gpu.backend.HostDeviceNode;
import io.github.dra4j.examples.gpu.config.GpuConfigs;
import io.github.dra4j.examples.gpu.config.PinnedMemoryLimits;
import io.github.dra4j.examples.gpu.config.SharingConfig;
import io.github.dra4j.examples.gpu.devices.DeviceCatalog;
import io.github.dra4j.examples.gpu.devices.GpuDevice;
import io.github.dra4j.examples.gpu.sharing.SharingSetting;
import io.github.dra4j.kubeletplugin.CallContext;
import io.github.dra4j.kubeletplugin.PluginContext;
import io.github.dra4j.kubeletplugin.lifecycle.ClaimDriver;
import io.github.dra4j.kubeletplugin.lifecycle.PreparedClaim;
import io.github.dra4j.resourceclaim.AllocatedDevice;
import io.github.dra4j.resourceclaim.DriverAllocation;
import io.github.dra4j.resourceclaim.config.ConfigGroup;
import io.github.dra4j.resourceclaim.config.ConfigResolver;
import io.github.dra4j.resourceclaim.config.ConfigSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The GPU driver's per-claim work, run by the SDK's claim lifecycle: resolves each device's
 * configuration (DeviceClass, then claim, over the driver's defaults), applies the sharing
 * setting of each configuration once to its GPUs through the backend's {@link
 * io.github.dra4j.examples.gpu.sharing.SharingCommands}, and gives each container the device
 * nodes of its devices and an environment that shows what it got ({@link ContainerEnvironment}),
 * plus {@code DRA_ADMIN_ACCESS} for the claim.
 *
 * <p>Sharing is set on hardware only where a DeviceClass or the claim asks for it (the driver's
 * default leaves a GPU as the node has it), and only for whole GPUs and partitions allocated
 * exclusively and without admin access: a MIG device's time slice is its GPU's, a device shared by several
 * claims must not be changed by one of them, and admin access must not change a device in use.
 * Unprepare (and rollback) resets what prepare set. With device status on, the GPUs' UUID,
 * product and driver version go to the claim's {@code status.devices[]} in the background.
 *
 * <p>Thread-safe: the SDK calls one claim at a time; the catalog is immutable.
 */
public final class GpuClaimDriver implements ClaimDriver<GpuClaimState> {

  private final DeviceCatalog catalog;
  private final GpuBackend backend;
  private final ConfigResolver configs;
  private final boolean deviceStatus;
  private final BiConsumer<Throwable, String> errors;
  private volatile PluginContext plugin;

  /**
   * Creates the driver.
   *
   * @param driverName the DRA driver name, whose configurations are read
   * @param catalog the node's devices
   * @param backend the GPUs' backend, for device nodes and sharing commands
   * @param deviceStatus whether to report device status in claims
   * @param errors where background errors go (the plugin's error handling)
   */
  public GpuClaimDriver(String driverName, DeviceCatalog catalog, GpuBackend backend,
      boolean deviceStatus, BiConsumer<Throwable, String> errors) {
    this.catalog = catalog;
    this.backend = backend;
    this.configs = GpuConfigs.resolver(driverName);
    this.deviceStatus = deviceStatus;
    this.errors = errors;
  }

  @Override
  public void start(PluginContext plugin) {
    this.plugin = plugin;
  }

  @Override
  public PreparedClaim<GpuClaimState> prepare(DriverAllocation allocation, ResourceClaim claim,
      CallContext context) throws Exception {
    Map<AllocatedDevice, ContainerEdits> edits = new LinkedHashMap<>();
    Set<String> configured = new LinkedHashSet<>();
    String uid = allocation.claim().uid();
    for (ConfigGroup group : configs.resolve(claim)) { // an invalid config fails this claim
      // Empty: a configuration that leaves the devices as they are (NVIDIA's without sharing).
      Optional<SharingSetting> setting = ((SharingConfig) group.config()).sharingSetting();
      if (setting.isPresent() && setting.get() instanceof SharingSetting.Mps mps) {
        // Per-device keys name devices of this group: checked before anything is changed.
        PinnedMemoryLimits.perDevice(mps, group.devices().stream()
            .map(allocated -> device(allocated).uuid()).toList());
      }
      Set<String> hardware = new LinkedHashSet<>();
      for (AllocatedDevice allocated : group.devices()) {
        GpuDevice device = device(allocated);
        ContainerEdits.Builder builder = ContainerEdits.builder();
        backend.deviceNodes(device.gpu(), device.mig()).stream()
            .map(HostDeviceNode::toCdi).forEach(builder::deviceNode);
        ContainerEnvironment.add(builder, device, allocated, uid, setting.orElse(null));
        edits.put(allocated, builder.build());
        if (setting.isPresent() && group.source() != ConfigSource.DRIVER_DEFAULT
            && changesHardware(device, allocated)) {
          hardware.add(device.gpu().uuid());
        }
      }
      if (!hardware.isEmpty()) {
        configured.addAll(hardware); // recorded first: a failure below is rolled back
        backend.sharing().apply(setting.get(), List.copyOf(hardware));
      }
    }
    PreparedClaim.Builder<GpuClaimState> prepared =
        PreparedClaim.builder(new GpuClaimState(List.copyOf(configured)));
    edits.forEach(prepared::device);
    boolean admin = allocation.devices().stream().anyMatch(AllocatedDevice::adminAccess);
    prepared.claimEdits(ContainerEdits.builder()
        .env("DRA_ADMIN_ACCESS", Boolean.toString(admin)).build());
    if (deviceStatus && plugin != null) {
      reportStatus(allocation, claim);
    }
    return prepared.build();
  }

  private GpuDevice device(AllocatedDevice allocated) {
    if (!allocated.pool().equals(catalog.poolName())) {
      throw new IllegalArgumentException("device " + allocated.fullName() + " of request "
          + allocated.request() + " is in pool " + allocated.pool() + ", not in this node's pool "
          + catalog.poolName());
    }
    return catalog.device(allocated.device()).orElseThrow(() -> new IllegalArgumentException(
        "device " + allocated.device() + " of request " + allocated.request()
            + " is not a device of this node"));
  }

  private static boolean changesHardware(GpuDevice device, AllocatedDevice allocated) {
    return device.mig().isEmpty() && allocated.isExclusive() && !allocated.adminAccess();
  }

  private void reportStatus(DriverAllocation allocation, ResourceClaim claim) {
    List<AllocatedDeviceStatus> entries = new ArrayList<>();
    for (AllocatedDevice allocated : allocation.devices()) {
      GpuDevice device = device(allocated);
      Map<String, Object> data = new LinkedHashMap<>();
      data.put("uuid", device.uuid());
      data.put("productName", device.gpu().productName());
      data.put("driverVersion", device.gpu().driverVersion());
      AllocatedDeviceStatusBuilder entry = new AllocatedDeviceStatusBuilder()
          .withPool(allocated.pool()).withDevice(allocated.device()).withData(data);
      if (allocated.shareId() != null) {
        entry.withShareID(allocated.shareId());
      }
      entries.add(entry.build());
    }
    plugin.claimStatus().report(claim, entries);
  }

  @Override
  public void unprepare(DriverAllocation allocation, GpuClaimState state, CallContext context)
      throws Exception {
    if (state != null && !state.configuredGpus().isEmpty()) {
      backend.sharing().reset(state.configuredGpus());
    }
  }

  /**
   * Undoes a prepare that did not complete. Without its state (the prepare threw or the process
   * died in it), the sharing of every GPU it could have changed is reset: resetting is harmless
   * where nothing was set.
   */
  @Override
  public void rollback(DriverAllocation allocation, Optional<GpuClaimState> state,
      CallContext context) throws Exception {
    if (state.isPresent()) {
      unprepare(allocation, state.get(), context);
      return;
    }
    Set<String> gpus = new LinkedHashSet<>();
    for (AllocatedDevice allocated : allocation.devices()) {
      catalog.device(allocated.device())
          .filter(device -> device.mig().isEmpty() && allocated.isExclusive()
              && !allocated.adminAccess())
          .ifPresent(device -> gpus.add(device.gpu().uuid()));
    }
    if (!gpus.isEmpty()) {
      backend.sharing().reset(List.copyOf(gpus));
    }
  }

  @Override
  public void handleError(Throwable error, String message) {
    errors.accept(error, message);
  }

  @Override
  public boolean reportsDeviceHealth() {
    return true;
  }
}
