package io.github.dra4j.testing.readme;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.kubeletplugin.CallContext;
import io.github.dra4j.lifecycle.ClaimDriver;
import io.github.dra4j.lifecycle.ClaimLifecycle;
import io.github.dra4j.lifecycle.PreparedClaim;
import io.github.dra4j.resourceclaim.AllocatedDevice;
import io.github.dra4j.resourceclaim.DriverAllocation;
import io.github.dra4j.resourceclaim.config.ConfigGroup;
import io.github.dra4j.resourceclaim.config.ConfigResolver;
import io.github.dra4j.resourceslice.DriverResources;
import io.github.dra4j.resourceslice.Pool;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;

/** The README's driver, compiled and run by the tests exactly as the README shows it. */
// README:begin driver
public final class ExampleGpuDriver implements ClaimDriver<Void> {
  public static final String NAME = "gpu.example.com";

  /** The driver inside the SDK's claim lifecycle: checkpoint, CDI specs, repair after crashes. */
  public static ClaimLifecycle<Void> lifecycle() {
    return ClaimLifecycle.builder(new ExampleGpuDriver(), Void.class).build();
  }

  /** The devices this node offers: a pool named after the node, gpu-0 to gpu-(count-1). */
  public static DriverResources devices(String nodeName, int count) {
    return DriverResources.of(nodeName, Pool.builder().devices(IntStream.range(0, count)
        .mapToObj(i -> new DeviceBuilder().withName("gpu-" + i)
            .addToAttributes("model", new DeviceAttributeBuilder().withString("A100").build())
            .build())
        .toList()).build());
  }

  /** Which configuration applies to which device: defaults, then DeviceClass, then claim. */
  private static final ConfigResolver<GpuConfig> CONFIGS = ConfigResolver.of(GpuConfig.SCHEME,
      NAME, List.of(new GpuConfig(GpuConfig.Sharing.TimeSlicing, null))); // the driver's default

  @Override
  public PreparedClaim<Void> prepare(DriverAllocation allocation, ResourceClaim claim,
      CallContext context) {
    PreparedClaim.Builder<Void> prepared = PreparedClaim.builder(); // devices now, state later
    for (ConfigGroup<GpuConfig> group : CONFIGS.resolve(claim)) { // a bad config fails the claim
      GpuConfig config = group.config(); // typed by the scheme: no cast
      for (AllocatedDevice gpu : group.devices()) { // this driver's devices only
        prepared.device(gpu, edits -> edits.env("GPU", gpu.device())
            .env("GPU_SHARING", config.sharing().name())
            .deviceNode("/dev/" + gpu.device()));
      }
    }
    return prepared.build(); // no state (.state(s) sets one); the SDK writes the CDI spec
  }

  @Override
  public void unprepare(DriverAllocation allocation, Void state, CallContext context) {
    // Nothing to undo on the hardware; the SDK removes the CDI spec and the checkpoint entry.
  }

  @Override // no default: say what a prepare that failed half-way leaves on the hardware
  public void rollback(DriverAllocation allocation, Optional<Void> state, CallContext context) {
    // Nothing: prepare only computes container edits.
  }
}
// README:end
