package io.github.dra4j.testing.e2e;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
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
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A small sample driver in the test sources: two FPGA slots; prepare gives a container {@code
 * FPGA_SLOT} and a device node, through the CDI spec the claim lifecycle writes. Records the
 * claims it prepared so tests can tell instances apart.
 */
public final class FpgaDriver implements ClaimDriver<Void> {

  static final String NAME = "fpga.example.com";
  static final Kind KIND = Kind.of("example.com", "fpga");

  final List<String> prepared = new CopyOnWriteArrayList<>();

  /** This driver inside the SDK's claim lifecycle, as a plugin serves it. */
  ClaimLifecycle<Void> lifecycle() {
    return ClaimLifecycle.builder(this, Void.class).cdiKind(KIND).build();
  }

  static DriverResources resources(String nodeName) {
    return DriverResources.of(nodeName, Pool.builder().devices(List.of(
        new DeviceBuilder().withName("slot-0")
            .addToAttributes("family", new DeviceAttributeBuilder().withString("agilex").build())
            .build(),
        new DeviceBuilder().withName("slot-1")
            .addToAttributes("family", new DeviceAttributeBuilder().withString("stratix").build())
            .build()))
        .build());
  }

  @Override
  public PreparedClaim<Void> prepare(DriverAllocation allocation, ResourceClaim claim,
      CallContext context) {
    prepared.add(allocation.claim().uid());
    PreparedClaim.Builder<Void> result = PreparedClaim.builder(null);
    for (AllocatedDevice device : allocation.devices()) {
      String slot = device.device();
      result.device(device, edits -> edits
          .env("FPGA_SLOT", slot.substring(slot.indexOf('-') + 1))
          .deviceNode("/dev/fpga-" + slot));
    }
    return result.build();
  }

  @Override
  public void unprepare(DriverAllocation allocation, Void state, CallContext context) {
    // Nothing on the device to undo; the lifecycle removes the CDI spec.
  }

  @Override
  public void rollback(DriverAllocation allocation, Optional<Void> state, CallContext context) {
    // Prepare changes nothing on the device, so a half-done one leaves nothing behind.
  }
}
