package io.github.dra4j.kubeletplugin.testsupport;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.kubeletplugin.CallContext;
import io.github.dra4j.kubeletplugin.DraDriver;
import io.github.dra4j.kubeletplugin.PrepareResult;
import io.github.dra4j.kubeletplugin.PreparedDevice;
import io.github.dra4j.kubeletplugin.UnprepareResult;
import io.github.dra4j.resourceclaim.ClaimReference;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.slf4j.MDC;

/**
 * A driver for tests: prepares each of its allocation results as one device with a CDI ID derived
 * from the claim UID, records every call with the MDC it ran under, and lets a test override the
 * answer per claim. Thread-safe.
 */
public class RecordingDriver implements DraDriver {

  /** One recorded call. */
  public record Call(String operation, List<String> claimUids, Map<String, String> mdc) {}

  private final String driverName;
  private final List<Call> calls = new CopyOnWriteArrayList<>();
  private final List<Map.Entry<Throwable, String>> errors = new CopyOnWriteArrayList<>();
  private volatile Function<ResourceClaim, PrepareResult> prepareOverride;
  private volatile boolean health;

  /**
   * Creates the driver.
   *
   * @param driverName the driver name whose allocation results it prepares
   */
  public RecordingDriver(String driverName) {
    this.driverName = driverName;
  }

  /**
   * Overrides the answer for claims; return null to fall back to the default answer.
   *
   * @param override per-claim answer
   * @return this
   */
  public RecordingDriver answering(Function<ResourceClaim, PrepareResult> override) {
    this.prepareOverride = override;
    return this;
  }

  /**
   * Makes the driver report device health.
   *
   * @return this
   */
  public RecordingDriver withHealth() {
    this.health = true;
    return this;
  }

  @Override
  public boolean reportsDeviceHealth() {
    return health;
  }

  @Override
  public Map<String, PrepareResult> prepareResourceClaims(List<ResourceClaim> claims,
      CallContext context)
      throws Exception {
    calls.add(new Call("prepare", claims.stream().map(c -> c.getMetadata().getUid()).toList(),
        copyOfMdc()));
    Map<String, PrepareResult> results = new LinkedHashMap<>();
    for (ResourceClaim claim : claims) {
      Function<ResourceClaim, PrepareResult> override = prepareOverride;
      PrepareResult answer = override == null ? null : override.apply(claim);
      results.put(claim.getMetadata().getUid(), answer != null ? answer : defaultAnswer(claim));
    }
    return results;
  }

  /**
   * One device per allocation result of this driver, CDI ID {@code example.com/gpu=<uid>-<dev>}.
   *
   * @param claim an allocated claim
   * @return the result
   */
  public PrepareResult defaultAnswer(ResourceClaim claim) {
    List<PreparedDevice> devices = new ArrayList<>();
    for (DeviceRequestAllocationResult result : claim.getStatus().getAllocation().getDevices()
        .getResults()) {
      if (!driverName.equals(result.getDriver())) {
        continue;
      }
      devices.add(PreparedDevice.builder(result.getPool(), result.getDevice())
          .request(result.getRequest())
          .cdiDeviceId("example.com/gpu=" + claim.getMetadata().getUid() + "-" + result.getDevice())
          .build());
    }
    return PrepareResult.prepared(devices);
  }

  @Override
  public Map<String, UnprepareResult> unprepareResourceClaims(List<ClaimReference> claims,
      CallContext context) {
    calls.add(new Call("unprepare", claims.stream().map(ClaimReference::uid).toList(),
        copyOfMdc()));
    Map<String, UnprepareResult> results = new LinkedHashMap<>();
    for (ClaimReference claim : claims) {
      results.put(claim.uid(), UnprepareResult.ok());
    }
    return results;
  }

  @Override
  public void handleError(Throwable error, String message) {
    errors.add(Map.entry(error, message));
  }

  /**
   * Calls so far.
   *
   * @return the calls in order
   */
  public List<Call> calls() {
    return List.copyOf(calls);
  }

  /**
   * Background errors so far.
   *
   * @return error and message pairs
   */
  public List<Map.Entry<Throwable, String>> errors() {
    return List.copyOf(errors);
  }

  private static Map<String, String> copyOfMdc() {
    Map<String, String> mdc = MDC.getCopyOfContextMap();
    return mdc == null ? Map.of() : Map.copyOf(mdc);
  }
}
