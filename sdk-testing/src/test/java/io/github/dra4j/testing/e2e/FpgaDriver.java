package io.github.dra4j.testing.e2e;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
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
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A small sample driver in the test sources: two FPGA slots; prepare writes a per-claim CDI spec
 * that sets {@code FPGA_SLOT} and adds a device node; unprepare removes it. Records the claims it
 * prepared so tests can tell instances apart.
 */
public final class FpgaDriver implements DraDriver {

  static final String NAME = "fpga.example.com";
  static final Kind KIND = Kind.of("example.com", "fpga");

  private final SpecDirectory specs;
  final List<String> prepared = new CopyOnWriteArrayList<>();

  FpgaDriver(Path cdiDirectory) {
    this.specs = SpecDirectory.at(cdiDirectory);
  }

  static DriverResources resources(String nodeName) {
    return DriverResources.of(nodeName, Pool.builder().devices(List.of(
        new DeviceBuilder().withName("slot-0")
            .addToAttributes("family", new DeviceAttributeBuilder().withString("agilex").build())
            .build(),
        new DeviceBuilder().withName("slot-1")
            .addToAttributes("family", new DeviceAttributeBuilder().withString("stratix").build())
            .build())).build());
  }

  @Override
  public Map<String, PrepareResult> prepareResourceClaims(List<ResourceClaim> claims,
      CallContext context) {
    Map<String, PrepareResult> results = new LinkedHashMap<>();
    for (ResourceClaim claim : claims) {
      String uid = claim.getMetadata().getUid();
      prepared.add(uid);
      CdiSpec.Builder spec = CdiSpec.builder().kind(KIND);
      List<PreparedDevice> devices = new ArrayList<>();
      for (DeviceRequestAllocationResult result :
          claim.getStatus().getAllocation().getDevices().getResults()) {
        String slot = result.getDevice();
        spec.device(uid + "-" + slot, edits -> edits
            .env("FPGA_SLOT", slot.substring(slot.indexOf('-') + 1))
            .deviceNode("/dev/fpga-" + slot));
        devices.add(PreparedDevice.builder(result.getPool(), slot).request(result.getRequest())
            .cdiDeviceId(KIND + "=" + uid + "-" + slot).build());
      }
      try {
        specs.writeTransient(spec.build(), uid);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      results.put(uid, PrepareResult.prepared(devices));
    }
    return results;
  }

  @Override
  public Map<String, UnprepareResult> unprepareResourceClaims(List<ClaimReference> claims,
      CallContext context)
      throws IOException {
    Map<String, UnprepareResult> results = new LinkedHashMap<>();
    for (ClaimReference claim : claims) {
      specs.removeTransient(KIND, claim.uid());
      results.put(claim.uid(), UnprepareResult.ok());
    }
    return results;
  }
}
