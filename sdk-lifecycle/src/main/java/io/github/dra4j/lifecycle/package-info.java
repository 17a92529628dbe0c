/**
 * The claim lifecycle: checkpointed, crash-safe prepare and unprepare, so a driver writes only the
 * part that touches its hardware.
 *
 * <ul>
 *   <li>{@link io.github.dra4j.lifecycle.ClaimDriver}: what the driver implements,
 *       one claim at a time: prepare (returning the container edits of each device and a state
 *       record), unprepare and rollback (given that record);
 *   <li>{@link io.github.dra4j.lifecycle.PreparedClaim}: what prepare returns;
 *   <li>{@link io.github.dra4j.lifecycle.ClaimLifecycle}: the adapter that makes a
 *       {@code ClaimDriver} a {@link io.github.dra4j.kubeletplugin.DraDriver}, with the checkpoint,
 *       the CDI spec per claim, repair after restarts and reboots, conflicts and clean-up.
 * </ul>
 *
 * <pre>{@code
 * KubeletPlugin plugin = KubeletPlugin.builder(
 *         ClaimLifecycle.builder(new MyGpus(), MyGpus.State.class).build())
 *     .driverName("gpu.example.com")
 *     .kubeClient(client)
 *     .nodeName(System.getenv("NODE_NAME"))
 *     .start();
 * }</pre>
 *
 * <p>Why it exists: the kubelet calls prepare again after its own restart and after a reboot
 * (it does not persist which claims it prepared), and may send the prepare to one pod of a
 * rolling update and the unprepare to the other. Every driver must therefore remember, on disk,
 * what it prepared and how, tell a restart (the hardware kept its state) from a reboot (it did
 * not, and {@code /var/run/cdi} is gone), and finish or undo work a crash interrupted. Go drivers
 * each write this themselves and have shipped the same bugs: a CDI spec not rewritten after a
 * reboot, old checkpoints rejected after a field was added, specs of deleted claims left behind.
 * The design and the crash-safety argument are in the repository's {@code
 * docs/claim-lifecycle.md}.
 *
 * <p>This module builds on the kubelet plugin's public API and its SPI ({@code
 * io.github.dra4j.kubeletplugin.spi}: the claim lookup, the directory checks), nothing else of it.
 *
 * <p>{@link io.github.dra4j.kubeletplugin.DraDriver} stays the low-level interface, as Go's
 * {@code DRAPlugin} is: a driver that wants to do all of this itself implements it directly.
 */
package io.github.dra4j.lifecycle;
