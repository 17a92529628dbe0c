package io.github.dra4j.lifecycle.internal.checkpoint;

import io.github.dra4j.resourceclaim.AllocatedDevice;
import java.util.List;
import java.util.Objects;
import tools.jackson.databind.JsonNode;

/**
 * What the checkpoint remembers about one claim this node's driver prepares or prepared.
 *
 * <p>Immutable: the lists are copied and unmodifiable, and the two JSON values are deep-copied
 * on the way in and on every read of the accessor, so no caller can change an entry that a
 * {@link CheckpointData} holds. JSON null for them is stored as null.
 *
 * @param phase how far preparing got
 * @param namespace the claim's namespace, a DNS label
 * @param name the claim's name, a DNS subdomain
 * @param bootId the boot ID ({@link BootId}) of the node boot in which this entry was written,
 *     so that a later boot can tell state that a reboot wiped (e.g. device nodes) from state that
 *     survives; not empty
 * @param allocation the devices the scheduler allocated, recorded when preparing starts; null
 *     becomes empty
 * @param devices the devices answered to the kubelet, empty while preparing has not completed;
 *     null becomes empty
 * @param cdiSpec the claim's CDI spec as JSON, or null; opaque to the checkpoint
 * @param driverState the driver's own record of the claim as JSON, or null; opaque to the
 *     checkpoint
 */
public record ClaimEntry(
    ClaimPhase phase,
    String namespace,
    String name,
    String bootId,
    List<AllocatedDevice> allocation,
    List<StoredDevice> devices,
    JsonNode cdiSpec,
    JsonNode driverState) {

  /**
   * Checks and copies the fields.
   *
   * @throws NullPointerException if phase is null or a list holds null
   * @throws IllegalArgumentException if namespace or name break their naming rule (they become
   *     parts of file and API paths) or bootId is null or empty
   */
  public ClaimEntry {
    Objects.requireNonNull(phase, "phase");
    CheckpointValues.check("namespace", CheckpointValues.namespaceProblem(namespace));
    CheckpointValues.check("name", CheckpointValues.nameProblem(name));
    bootId = CheckpointValues.required("bootId", bootId);
    allocation = allocation == null ? List.of() : List.copyOf(allocation);
    devices = devices == null ? List.of() : List.copyOf(devices);
    cdiSpec = CheckpointValues.copy(cdiSpec);
    driverState = CheckpointValues.copy(driverState);
  }

  /**
   * The entry written before the driver prepares a claim: the allocation, no devices yet.
   *
   * @param namespace the claim's namespace
   * @param name the claim's name
   * @param bootId the current boot ID
   * @param allocation the devices the scheduler allocated
   * @return a {@link ClaimPhase#PREPARE_STARTED} entry
   */
  public static ClaimEntry started(
      String namespace, String name, String bootId, List<AllocatedDevice> allocation) {
    return new ClaimEntry(ClaimPhase.PREPARE_STARTED, namespace, name, bootId, allocation,
        List.of(), null, null);
  }

  /**
   * This entry once preparing completed: same claim, boot ID and allocation, plus what was
   * answered.
   *
   * @param answered the devices answered to the kubelet
   * @param spec the claim's CDI spec as JSON, or null
   * @param state the driver's own record of the claim as JSON, or null
   * @return a {@link ClaimPhase#PREPARE_COMPLETED} entry
   */
  public ClaimEntry completed(List<StoredDevice> answered, JsonNode spec, JsonNode state) {
    return new ClaimEntry(ClaimPhase.PREPARE_COMPLETED, namespace, name, bootId, allocation,
        answered, spec, state);
  }

  /**
   * This entry once unpreparing started: the same record, marked so that the claim is never
   * answered as prepared from it again.
   *
   * @return a {@link ClaimPhase#UNPREPARE_STARTED} entry
   * @throws IllegalStateException if this entry is not {@link ClaimPhase#PREPARE_COMPLETED}
   */
  public ClaimEntry unprepareStarted() {
    if (phase != ClaimPhase.PREPARE_COMPLETED) {
      throw new IllegalStateException("only a completed claim is unprepared, not one in phase "
          + phase);
    }
    return new ClaimEntry(ClaimPhase.UNPREPARE_STARTED, namespace, name, bootId, allocation,
        devices, cdiSpec, driverState);
  }

  /**
   * The claim's CDI spec.
   *
   * @return a copy the caller owns, or null
   */
  @Override
  public JsonNode cdiSpec() {
    return CheckpointValues.copy(cdiSpec);
  }

  /**
   * The driver's own record of the claim.
   *
   * @return a copy the caller owns, or null
   */
  @Override
  public JsonNode driverState() {
    return CheckpointValues.copy(driverState);
  }
}
