package io.github.dra4j.lifecycle;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.core.stability.KubernetesAlpha;
import io.github.dra4j.kubeletplugin.CallContext;
import io.github.dra4j.kubeletplugin.DraDriver;
import io.github.dra4j.kubeletplugin.HealthTaints;
import io.github.dra4j.kubeletplugin.PluginContext;
import io.github.dra4j.kubeletplugin.spi.DefaultErrorLog;
import io.github.dra4j.resourceclaim.DriverAllocation;
import java.util.Optional;
import org.slf4j.LoggerFactory;

/**
 * What a driver implements when the SDK runs the claim lifecycle for it: the part that touches the
 * hardware, one claim at a time. {@link ClaimLifecycle} turns it into a {@link DraDriver} and does
 * everything else: the checkpoint of prepared claims, the CDI spec of each claim, repeated and
 * half-done calls, conflicts between claims, and repair after a restart or a reboot.
 *
 * <p>The SDK calls these methods one claim at a time, never two at once for one node (it holds
 * the checkpoint's lock, which the two pods of a rolling update share). What the driver returns
 * from {@link #prepare} is stored durably before the kubelet hears of it, so after any crash the
 * SDK knows either that the claim was prepared (and how: the state record), that a prepare may
 * have been under way (and calls {@link #rollback}), or that an unprepare may have been under way
 * (and calls {@link #unprepare} again before anything else happens to the claim).
 *
 * <p><b>Idempotence.</b> A crash can come between the hardware work and the record of it, so
 * {@link #unprepare} and {@link #rollback} may be called again for work they already undid, and
 * {@link #rollback} may be called for work that never started. Both must undo what is there and
 * succeed when nothing is. {@link #rollback} has no default: a driver decides, where the compiler
 * makes it, what a half-done prepare leaves behind. {@link #prepare} is never called twice for one claim without a
 * rollback or unprepare in between, except after a reboot (the hardware kept nothing) or after a
 * corrupt checkpoint was kept aside (the SDK no longer knows the claim was prepared).
 *
 * @param <S> the driver's state record for a prepared claim (for example the IDs of partitions it
 *     created), stored in the checkpoint as JSON with Jackson; {@link Void} for a driver that needs
 *     none
 */
public interface ClaimDriver<S> {

  /**
   * Prepares this driver's devices of one claim on the node.
   *
   * @param allocation this driver's devices of the claim, as the scheduler allocated them
   * @param claim the whole claim, for what {@code allocation} does not carry (configuration,
   *     labels)
   * @param context the kubelet's deadline and cancellation, the node, the plugin data directory
   * @return what each device gives a container, and the state to store
   * @throws Exception if the claim cannot be prepared; the SDK then calls {@link #rollback} with
   *     no state and answers the kubelet with the exception's message, and the kubelet retries
   */
  PreparedClaim<S> prepare(DriverAllocation allocation, ResourceClaim claim, CallContext context)
      throws Exception;

  /**
   * Undoes a completed {@link #prepare}: the pod is gone and the kubelet unprepares the claim, or
   * the claim no longer exists in the API server. The SDK removes the claim's CDI spec and its
   * checkpoint entry after this returns.
   *
   * @param allocation the devices as they were allocated, from the checkpoint
   * @param state the state {@link #prepare} returned (null if it returned none)
   * @param context the kubelet's call, or a detached context for the SDK's own clean-up
   * @throws Exception if undoing failed; the claim stays marked as being unprepared and the
   *     kubelet retries. It is never answered as prepared again from its record: a prepare of it
   *     first calls this again to finish the undo, then {@link #prepare}
   */
  void unprepare(DriverAllocation allocation, S state, CallContext context) throws Exception;

  /**
   * Undoes a {@link #prepare} that did not complete: it threw, the SDK could not write the CDI
   * spec or the checkpoint after it, or the process died during it (then the rollback happens at
   * the next start, or before the claim is prepared again).
   *
   * <p>Every driver writes this method; there is deliberately no default. A default that does
   * nothing leaks whatever a prepare that threw half-way left on the hardware (a partition, a
   * sharing mode, a daemon), and only the driver knows what that is. Typical bodies:
   *
   * <ul>
   *   <li>with a state (prepare returned, the SDK failed after it): {@code
   *       unprepare(allocation, state.get(), context)};
   *   <li>without one (prepare threw or the process died in it): undo each hardware step prepare
   *       may have taken for these devices, found by the claim's UID or the devices, and succeed
   *       when there is nothing to undo;
   *   <li>a driver whose prepare changes nothing on the node (it only computes container edits)
   *       writes an empty body, which says so where a reader sees it.
   * </ul>
   *
   * @param allocation the devices as they were allocated
   * @param state the state {@link #prepare} returned, or empty when it did not return (it threw,
   *     or the process died during it)
   * @param context the kubelet's call, or a detached context at start-up
   * @throws Exception if undoing failed; the claim is marked as half-done and rolled back again
   *     later
   */
  void rollback(DriverAllocation allocation, Optional<S> state, CallContext context)
      throws Exception;

  /**
   * Called once before the plugin serves and before the SDK repairs the claims of the
   * checkpoint, for a driver that must find its hardware first.
   *
   * @param plugin the plugin's settings
   * @throws Exception if the driver cannot start; the plugin does not start
   */
  default void start(PluginContext plugin) throws Exception {}

  /** Called once when the plugin closes, after the last call. Must not throw. */
  default void stop() {}

  /**
   * Receives errors that happen in the background; see {@link DraDriver#handleError}. The claim
   * lifecycle reports here too, wrapped in {@link io.github.dra4j.kubeletplugin.RecoverableException}
   * because none of them stops the plugin: a checkpoint that could not be read and was kept aside,
   * a claim whose rollback or clean-up failed and is tried again later.
   *
   * @param error what went wrong
   * @param message where it happened
   */
  default void handleError(Throwable error, String message) {
    DefaultErrorLog.error(LoggerFactory.getLogger(ClaimDriver.class), error, message);
  }

  /**
   * Whether this driver reports device health; see {@link DraDriver#reportsDeviceHealth()}.
   *
   * @return false by default
   */
  @KubernetesAlpha(feature = "ResourceHealthStatus", since = "1.34")
  default boolean reportsDeviceHealth() {
    return false;
  }

  /**
   * The taints this driver's devices get from their reported health; see {@link
   * io.github.dra4j.kubeletplugin.DraDriver#healthTaints()}.
   *
   * @return null (the default) for none
   */
  @KubernetesAlpha(feature = "DRADeviceTaints", since = "1.33", beta = "1.36")
  default HealthTaints healthTaints() {
    return null;
  }
}
