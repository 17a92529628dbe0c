package io.github.dra4j.examples.gpu.prepare;

import io.fabric8.kubernetes.api.model.resource.v1.AllocatedDeviceStatus;
import io.fabric8.kubernetes.api.model.resource.v1.AllocatedDeviceStatusBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.cdi.spec.ContainerEdits;
import io.github.dra4j.examples.gpu.backend.GpuBackend;
import io.github.dra4j.examples.gpu.backend.HostDeviceNode;
import io.github.dra4j.examples.gpu.config.GpuConfigs;
import io.github.dra4j.examples.gpu.config.SharingConfig;
import io.github.dra4j.examples.gpu.devices.DeviceCatalog;
import io.github.dra4j.examples.gpu.devices.GpuDevice;
import io.github.dra4j.examples.gpu.mps.MpsGroup;
import io.github.dra4j.examples.gpu.sharing.SharingSetting;
import io.github.dra4j.kubeletplugin.CallContext;
import io.github.dra4j.kubeletplugin.HealthTaints;
import io.github.dra4j.kubeletplugin.PluginContext;
import io.github.dra4j.lifecycle.ClaimDriver;
import io.github.dra4j.lifecycle.PreparedClaim;
import io.github.dra4j.resourceclaim.AllocatedDevice;
import io.github.dra4j.resourceclaim.DriverAllocation;
import io.github.dra4j.resourceclaim.config.ConfigGroup;
import io.github.dra4j.resourceclaim.config.ConfigResolver;
import io.github.dra4j.resourceclaim.config.ConfigSource;
import java.io.IOException;
import java.nio.file.Files;
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
 * Every change is recorded before it is made ({@link HardwareChanges}), and unprepare and
 * rollback undo exactly what the record holds. MPS starts one control daemon per configuration
 * group (see {@link io.github.dra4j.examples.gpu.mps}), and the group's containers get its pipe
 * and shared-memory directories. With device status on, the GPUs' UUID,
 * product and driver version go to the claim's {@code status.devices[]} in the background.
 *
 * <p>Thread-safe: the SDK calls one claim at a time; the catalog is immutable.
 */
public final class GpuClaimDriver implements ClaimDriver<GpuClaimState> {

  private final DeviceCatalog catalog;
  private final GpuBackend backend;
  private final ConfigResolver<SharingConfig> configs;
  private final boolean deviceStatus;
  private final BiConsumer<Throwable, String> errors;
  private final HealthTaints healthTaints;
  private volatile PluginContext plugin;
  private volatile HardwareChanges changes;

  /**
   * Creates the driver.
   *
   * @param driverName the DRA driver name, whose configurations are read
   * @param catalog the node's devices
   * @param backend the GPUs' backend, for device nodes and sharing commands
   * @param deviceStatus whether to report device status in claims
   * @param errors where background errors go (the plugin's error handling)
   * @param healthTaints the taints the devices' health puts on them in the published slices
   */
  public GpuClaimDriver(String driverName, DeviceCatalog catalog, GpuBackend backend,
      boolean deviceStatus, BiConsumer<Throwable, String> errors, HealthTaints healthTaints) {
    this.catalog = catalog;
    this.backend = backend;
    this.configs = GpuConfigs.resolver(driverName);
    this.deviceStatus = deviceStatus;
    this.errors = errors;
    this.healthTaints = healthTaints;
  }

  /**
   * Reads the node's boot ID, then recovers what a crash or restart left: records of an earlier
   * boot dropped, MPS daemons of prepared claims started again (a plugin restart ends the daemons
   * it started, as its children), daemon directories of claims no longer prepared swept, pending
   * GPU resets tried. Problems are reported, never fatal.
   */
  @Override
  public void start(PluginContext plugin) {
    this.plugin = plugin;
    String bootId;
    try {
      bootId = Files.readString(plugin.bootIdSource()).strip();
    } catch (IOException e) {
      errors.accept(e, "read the boot ID from " + plugin.bootIdSource());
      bootId = "unknown";
    }
    HardwareChanges recovered = new HardwareChanges(backend.sharing(),
        plugin.pluginDataDirectory(), bootId, errors);
    recovered.recover();
    this.changes = recovered;
  }

  private HardwareChanges changes(CallContext context) {
    HardwareChanges current = changes;
    if (current == null) { // not started by a lifecycle (unit use): no boot to compare
      current = new HardwareChanges(backend.sharing(), context.pluginDataDirectory(), "unknown",
          errors);
      changes = current;
    }
    return current;
  }

  /** One configuration group's plan, checked in full before anything on the node changes. */
  private record Plan(SharingSetting setting, List<String> wholeGpus, Optional<MpsGroup> mps,
      List<AllocatedDevice> mpsDevices) {}

  @Override
  public PreparedClaim<GpuClaimState> prepare(DriverAllocation allocation, ResourceClaim claim,
      CallContext context) throws Exception {
    Map<AllocatedDevice, ContainerEdits.Builder> edits = new LinkedHashMap<>();
    String uid = allocation.claim().uid();
    List<Plan> plans = new ArrayList<>();
    for (ConfigGroup<SharingConfig> group : configs.resolve(claim)) { // a bad one fails the claim
      // Empty: a configuration that leaves the devices as they are (NVIDIA's without sharing).
      Optional<SharingSetting> setting = group.config().sharingSetting();
      Set<String> hardware = new LinkedHashSet<>();
      List<AllocatedDevice> mpsDevices = new ArrayList<>();
      for (AllocatedDevice allocated : group.devices()) {
        GpuDevice device = device(allocated);
        ContainerEdits.Builder builder = ContainerEdits.builder();
        backend.deviceNodes(device.gpu(), device.mig()).stream()
            .map(HostDeviceNode::toCdi).forEach(builder::deviceNode);
        ContainerEnvironment.add(builder, device, allocated, uid, setting.orElse(null));
        edits.put(allocated, builder);
        if (setting.isEmpty() || group.source() == ConfigSource.DRIVER_DEFAULT) {
          continue; // the driver's default leaves the hardware as it is
        }
        if (changesHardware(device, allocated)) {
          hardware.add(device.gpu().uuid());
        }
        if (setting.get() instanceof SharingSetting.Mps && allocated.isExclusive()
            && !allocated.adminAccess()) {
          mpsDevices.add(allocated);
        }
      }
      if (setting.isEmpty()) {
        continue;
      }
      Optional<MpsGroup> mps = setting.get() instanceof SharingSetting.Mps m
          && !mpsDevices.isEmpty()
              ? Optional.of(MpsGroup.of(uid, mpsDevices.stream().map(a -> device(a).uuid())
                  .toList(), m)) // a bad per-device key fails the claim here, before any change
              : Optional.empty();
      plans.add(new Plan(setting.get(), List.copyOf(hardware), mps, mpsDevices));
    }
    Set<String> configured = new LinkedHashSet<>();
    if (plans.stream().anyMatch(p -> !p.wholeGpus().isEmpty() || p.mps().isPresent())) {
      HardwareChanges.Claim changing = changes(context).begin(uid);
      for (Plan plan : plans) {
        if (!plan.wholeGpus().isEmpty()) {
          changing.apply(plan.setting(), plan.wholeGpus()); // recorded before it is done
          configured.addAll(plan.wholeGpus());
        }
        if (plan.mps().isPresent()) {
          changing.startDaemon(plan.mps().get());
          ContainerEdits mpsEdits = backend.sharing().mps()
              .containerEdits(plan.mps().get(), context.pluginDataDirectory());
          plan.mpsDevices().forEach(d -> edits.get(d).edits(mpsEdits));
        }
      }
      changing.prepared();
    }
    PreparedClaim.Builder<GpuClaimState> prepared = PreparedClaim.builder();
    edits.forEach((device, builder) -> prepared.device(device, builder.build()));
    prepared.state(new GpuClaimState(List.copyOf(configured))); // what the hardware work did
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
    // Prepare does not wait for the write; a failed one goes to the plugin's error handler too.
    var unused = plugin.claimStatus().report(claim, entries);
  }

  /**
   * Undoes what the claim's prepare changed, from the driver's record of it: its MPS daemons
   * stopped and their directories removed, then the sharing of its GPUs reset. A reset that
   * cannot run is reported and remembered for later; the unprepare completes, so the devices are
   * free for other claims.
   */
  @Override
  public void unprepare(DriverAllocation allocation, GpuClaimState state, CallContext context)
      throws Exception {
    changes(context).undo(allocation.claim().uid(),
        state == null ? List.of() : state.configuredGpus());
  }

  /**
   * Undoes a prepare that did not complete, exactly as far as the driver's record says it got
   * (the record is written before each change): a claim whose prepare changed nothing, as with
   * the driver's default configuration, undoes nothing.
   */
  @Override
  public void rollback(DriverAllocation allocation, Optional<GpuClaimState> state,
      CallContext context) throws Exception {
    changes(context).undo(allocation.claim().uid(),
        state.map(GpuClaimState::configuredGpus).orElse(List.of()));
  }

  @Override
  public void handleError(Throwable error, String message) {
    errors.accept(error, message);
  }

  @Override
  public boolean reportsDeviceHealth() {
    return true;
  }

  @Override
  public HealthTaints healthTaints() {
    return healthTaints;
  }
}
