package io.github.dra4j.kubeletplugin.internal.node;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.kubeletplugin.PrepareResult;
import io.github.dra4j.kubeletplugin.UnprepareResult;
import io.github.dra4j.kubeletplugin.internal.logging.LogText;
import io.github.dra4j.kubeletplugin.internal.metadata.MetadataWriter;
import io.github.dra4j.resourceclaim.ClaimReference;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The device-metadata part of a kubelet call, run inside the serialized section after the driver
 * answered: files written for each prepared claim (their CDI device IDs added to its devices),
 * removed for each unprepared one. With the feature off, results pass through unchanged.
 * Immutable; the writer does the file work.
 */
final class MetadataStep {

  private static final Logger LOG = LoggerFactory.getLogger(MetadataStep.class);

  private final MetadataWriter writer;

  /**
   * Creates the step.
   *
   * @param writer writer of device-metadata files, or null when the feature is off
   */
  MetadataStep(MetadataWriter writer) {
    this.writer = writer;
  }

  /** Whether metadata is written: then every claim must be read in full. */
  boolean enabled() {
    return writer != null;
  }

  /**
   * Writes device metadata for each successfully prepared claim and adds the metadata CDI device
   * IDs to its devices. A write failure is logged; the claim stays prepared, without metadata.
   */
  Map<String, PrepareResult> written(Map<String, PrepareResult> results,
      Map<String, ResourceClaim> claims) {
    if (writer == null || results == null) {
      return results;
    }
    Map<String, PrepareResult> withIds = new LinkedHashMap<>(results);
    results.forEach((uid, result) -> {
      ResourceClaim claim = claims.get(uid);
      if (claim == null || result == null || result.isFailed()
          || DeviceCheck.problem(result.devices()).isPresent()) {
        return; // the claim fails (PrepareAnswer reports why): no files for it
      }
      try (MDC.MDCCloseable ignored = MDC.putCloseable(NodeService.MDC_CLAIM, uid)) {
        Map<String, String> ids = writer.write(claim, result.devices());
        withIds.put(uid, MetadataInjection.inject(result, ids));
      } catch (IOException | RuntimeException e) {
        LOG.warn("Failed to write device metadata for claim {}: {}",
            LogText.quote(claim.getMetadata().getNamespace() + "/"
                + claim.getMetadata().getName()),
            LogText.text(e.toString()));
      }
    });
    return withIds;
  }

  /**
   * Removes device metadata of each successfully unprepared claim; a claim whose metadata cannot
   * be removed fails, so the kubelet retries the unprepare.
   */
  Map<String, UnprepareResult> removed(Map<String, UnprepareResult> results,
      Map<String, ClaimReference> requested) {
    if (writer == null || results == null) {
      return results;
    }
    Map<String, UnprepareResult> cleaned = new LinkedHashMap<>(results);
    results.forEach((uid, result) -> {
      ClaimReference ref = requested.get(uid);
      if (ref == null || result == null || result.isFailed()) {
        return;
      }
      try {
        writer.cleanUp(ref);
      } catch (IOException | RuntimeException e) {
        cleaned.put(uid, UnprepareResult.failed("clean up device metadata: " + e.getMessage()));
      }
    });
    return cleaned;
  }
}
