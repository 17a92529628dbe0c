package io.github.dra4j.testing.readme;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/** The README's driver, compiled and run by the tests exactly as the README shows it. */
// README:begin driver
public final class ExampleGpuDriver implements DraDriver {
  public static final String NAME = "gpu.example.com";
  private static final Kind KIND = Kind.of("example.com", "gpu");
  private final SpecDirectory specs;

  public ExampleGpuDriver(SpecDirectory specs) {
    this.specs = specs;
  }

  /** The devices this node offers: a pool named after the node, gpu-0 to gpu-(count-1). */
  public static DriverResources devices(String nodeName, int count) {
    return DriverResources.of(nodeName, Pool.builder().devices(IntStream.range(0, count)
        .mapToObj(i -> new DeviceBuilder().withName("gpu-" + i)
            .addToAttributes("model", new DeviceAttributeBuilder().withString("A100").build())
            .build())
        .toList()).build());
  }

  @Override
  public Map<String, PrepareResult> prepareResourceClaims(List<ResourceClaim> claims,
      CallContext context) {
    Map<String, PrepareResult> results = new HashMap<>();
    for (ResourceClaim claim : claims) {
      String uid = claim.getMetadata().getUid();
      CdiSpec.Builder spec = CdiSpec.builder().kind(KIND);
      List<PreparedDevice> devices = new ArrayList<>();
      for (var result : claim.getStatus().getAllocation().getDevices().getResults()) {
        if (!result.getDriver().equals(NAME)) {
          continue;                                          // another driver's device
        }
        String gpu = result.getDevice();
        spec.device(uid + "-" + gpu, edits -> edits.env("GPU", gpu).deviceNode("/dev/" + gpu));
        devices.add(PreparedDevice.builder(result.getPool(), gpu)
            .request(result.getRequest())
            .cdiDeviceId(KIND + "=" + uid + "-" + gpu)
            .build());
      }
      try {
        specs.writeTransient(spec.build(), uid);              // example.com-gpu_<uid>.json
        results.put(uid, PrepareResult.prepared(devices));
      } catch (IOException e) {
        results.put(uid, PrepareResult.failed("write CDI spec: " + e.getMessage(), e));
      }
    }
    return results;
  }

  @Override
  public Map<String, UnprepareResult> unprepareResourceClaims(List<ClaimReference> claims,
      CallContext context) {
    Map<String, UnprepareResult> results = new HashMap<>();
    for (ClaimReference claim : claims) {
      try {
        specs.removeTransient(KIND, claim.uid());
        results.put(claim.uid(), UnprepareResult.ok());
      } catch (IOException e) {
        results.put(claim.uid(), UnprepareResult.failed("remove CDI spec: " + e.getMessage(), e));
      }
    }
    return results;
  }
}
// README:end
