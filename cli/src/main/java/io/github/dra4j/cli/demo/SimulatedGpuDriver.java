package io.github.dra4j.cli.demo;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacityBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.cdi.name.Kind;
import io.github.dra4j.kubeletplugin.CallContext;
import io.github.dra4j.lifecycle.ClaimDriver;
import io.github.dra4j.lifecycle.ClaimLifecycle;
import io.github.dra4j.lifecycle.PreparedClaim;
import io.github.dra4j.resourceclaim.AllocatedDevice;
import io.github.dra4j.resourceclaim.DriverAllocation;
import io.github.dra4j.resourceslice.DriverResources;
import io.github.dra4j.resourceslice.Pool;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * A small GPU driver for the demo and for learning: it publishes simulated GPUs (no hardware
 * needed) and prepares a claim by giving a container one device node and one environment variable
 * per GPU. The SDK's claim lifecycle ({@link #lifecycle()}) writes the per-claim CDI spec, keeps
 * the checkpoint, and removes both on unprepare.
 *
 * <p>Nothing changes on the (simulated) hardware, so it keeps no state. Thread-safe.
 */
public final class SimulatedGpuDriver implements ClaimDriver<Void> {

  /** The DRA driver name. */
  public static final String DRIVER_NAME = "gpu.example.com";

  /** The CDI kind of its devices. */
  public static final Kind CDI_KIND = Kind.of("example.com", "gpu");

  private final String poolName;
  private final int gpus;

  /**
   * Creates the driver.
   *
   * @param poolName the pool to publish (the node name, by convention)
   * @param gpus how many GPUs to simulate
   */
  public SimulatedGpuDriver(String poolName, int gpus) {
    this.poolName = poolName;
    this.gpus = gpus;
  }

  /**
   * The driver inside the SDK's claim lifecycle, ready for {@code KubeletPlugin.builder}; CDI
   * specs go to the plugin's CDI directory.
   *
   * @return the lifecycle
   */
  public ClaimLifecycle<Void> lifecycle() {
    return ClaimLifecycle.builder(this, Void.class).cdiKind(CDI_KIND).build();
  }

  /**
   * The devices this node has: {@code gpu-0} ... with a model, an index, a driver version and
   * 16Gi of memory each.
   *
   * @return one pool named after the node
   */
  public DriverResources resources() {
    List<Device> devices = IntStream.range(0, gpus).mapToObj(i -> new DeviceBuilder()
        .withName("gpu-" + i)
        .addToAttributes("model", new DeviceAttributeBuilder().withString("SimGPU 4000").build())
        .addToAttributes("index", new DeviceAttributeBuilder().withInt((long) i).build())
        .addToAttributes("driverVersion", new DeviceAttributeBuilder().withVersion("1.2.0").build())
        .addToCapacity("memory",
            new DeviceCapacityBuilder().withValue(new Quantity("16Gi")).build())
        .build()).toList();
    return DriverResources.of(poolName, Pool.builder().devices(devices).build());
  }

  @Override
  public PreparedClaim<Void> prepare(DriverAllocation allocation, ResourceClaim claim,
      CallContext context) {
    PreparedClaim.Builder<Void> prepared = PreparedClaim.builder(null);
    for (AllocatedDevice gpu : allocation.devices()) {
      String name = gpu.device();
      prepared.device(gpu, edits -> edits
          .env("SIMGPU_" + name.replace('-', '_').toUpperCase(Locale.ROOT), "1")
          .deviceNode("/dev/simgpu" + name.substring(name.indexOf('-') + 1)));
    }
    return prepared.build();
  }

  @Override
  public void unprepare(DriverAllocation allocation, Void state, CallContext context) {
    // Nothing to undo on simulated hardware; the SDK removes the CDI spec and the entry.
  }

  @Override
  public void rollback(DriverAllocation allocation, Optional<Void> state, CallContext context) {
    // Nothing: prepare changes nothing on simulated hardware.
  }
}
