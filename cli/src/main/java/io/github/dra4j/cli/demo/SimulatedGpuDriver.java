package io.github.dra4j.cli.demo;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacityBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.cdi.name.Kind;
import io.github.dra4j.cdi.spec.CdiSpec;
import io.github.dra4j.cdi.store.SpecDirectory;
import io.github.dra4j.kubeletplugin.CallContext;
import io.github.dra4j.kubeletplugin.DraDriver;
import io.github.dra4j.kubeletplugin.PrepareResult;
import io.github.dra4j.kubeletplugin.PreparedDevice;
import io.github.dra4j.kubeletplugin.UnprepareResult;
import io.github.dra4j.resourceclaim.ClaimReference;
import io.github.dra4j.resourceslice.DriverResources;
import io.github.dra4j.resourceslice.Pool;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * A small GPU driver for the demo and for learning: it publishes simulated GPUs (no hardware
 * needed) and prepares claims by writing a per-claim CDI spec that gives a container one device
 * node and one environment variable per GPU; unprepare removes the spec.
 *
 * <p>Stateless across calls, as a rolling-update driver must be: everything it needs is in the
 * claim or on disk. Thread-safe.
 */
public final class SimulatedGpuDriver implements DraDriver {

  /** The DRA driver name. */
  public static final String DRIVER_NAME = "gpu.example.com";

  /** The CDI kind of its devices. */
  public static final Kind CDI_KIND = Kind.of("example.com", "gpu");

  private final String poolName;
  private final int gpus;
  private final SpecDirectory specs;

  /**
   * Creates the driver.
   *
   * @param poolName the pool to publish (the node name, by convention)
   * @param gpus how many GPUs to simulate
   * @param cdiDirectory where the runtime reads CDI specs
   */
  public SimulatedGpuDriver(String poolName, int gpus, Path cdiDirectory) {
    this.poolName = poolName;
    this.gpus = gpus;
    this.specs = SpecDirectory.at(cdiDirectory);
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
        .addToCapacity("memory", new DeviceCapacityBuilder().withValue(new Quantity("16Gi")).build())
        .build()).toList();
    return DriverResources.of(poolName, Pool.builder().devices(devices).build());
  }

  @Override
  public Map<String, PrepareResult> prepareResourceClaims(List<ResourceClaim> claims,
      CallContext context) {
    Map<String, PrepareResult> results = new LinkedHashMap<>();
    for (ResourceClaim claim : claims) {
      String uid = claim.getMetadata().getUid();
      try {
        results.put(uid, PrepareResult.prepared(prepare(claim)));
      } catch (IOException | RuntimeException e) {
        results.put(uid, PrepareResult.failed("write CDI spec: " + e.getMessage()));
      }
    }
    return results;
  }

  private List<PreparedDevice> prepare(ResourceClaim claim) throws IOException {
    String uid = claim.getMetadata().getUid();
    CdiSpec.Builder spec = CdiSpec.builder().kind(CDI_KIND);
    List<PreparedDevice> devices = new ArrayList<>();
    for (DeviceRequestAllocationResult result :
        claim.getStatus().getAllocation().getDevices().getResults()) {
      if (!DRIVER_NAME.equals(result.getDriver())) {
        continue;
      }
      String gpu = result.getDevice();
      String cdiName = uid + "-" + gpu;
      spec.device(cdiName, edits -> edits
          .env("SIMGPU_" + gpu.replace('-', '_').toUpperCase(java.util.Locale.ROOT), "1")
          .deviceNode("/dev/simgpu" + gpu.substring(gpu.indexOf('-') + 1)));
      devices.add(PreparedDevice.builder(result.getPool(), gpu)
          .request(result.getRequest())
          .cdiDeviceId(CDI_KIND + "=" + cdiName)
          .build());
    }
    if (!devices.isEmpty()) {
      specs.writeTransient(spec.build(), uid);
    }
    return devices;
  }

  @Override
  public Map<String, UnprepareResult> unprepareResourceClaims(List<ClaimReference> claims,
      CallContext context) {
    Map<String, UnprepareResult> results = new LinkedHashMap<>();
    for (ClaimReference claim : claims) {
      try {
        specs.removeTransient(CDI_KIND, claim.uid());
        results.put(claim.uid(), UnprepareResult.ok());
      } catch (IOException e) {
        results.put(claim.uid(), UnprepareResult.failed("remove CDI spec: " + e.getMessage()));
      }
    }
    return results;
  }
}
