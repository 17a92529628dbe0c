/**
 * CUDA MPS for claims: one control daemon per claim group that asks for MPS ({@link
 * io.github.dra4j.examples.gpu.mps.MpsGroup}, named by {@link
 * io.github.dra4j.examples.gpu.mps.MpsDaemonId}), started and stopped by {@link
 * io.github.dra4j.examples.gpu.mps.MpsDaemons}, with its directories under {@code <plugin
 * dir>/mps/<id>/} ({@link io.github.dra4j.examples.gpu.mps.MpsDirectories}).
 *
 * <p><b>Shared memory.</b> MPS clients and their server exchange data through POSIX shared
 * memory, so a claim's containers and its daemon must see the same {@code /dev/shm}. The
 * containers get the group's {@code shm} directory bound on {@code /dev/shm} through CDI; the
 * daemon is started through {@code unshare --mount} in a mount namespace of its own where the
 * same directory is bound on {@code /dev/shm} (the MPS server it spawns inherits it). That needs
 * no mount the host must see (no {@code Bidirectional} mount propagation), and nothing is left
 * mounted when the daemon ends: its namespace ends with it. The directory is an ordinary one in
 * the plugin's data directory rather than a tmpfs, so shared-memory pages of MPS are backed by
 * that file system; a tmpfs on it (as NVIDIA's driver mounts) would need mount propagation back
 * to the host and an unmount in every undo path. Tests run the same commands with stub programs.
 *
 * <p><b>Lifetime.</b> The daemons are children of the plugin: a plugin restart (or a container
 * stop) ends them. At start the claim driver starts again the daemons of the claims that are
 * still prepared, stops daemons and removes directories of claims that are not, and identifies
 * a daemon by PID and start time ({@link io.github.dra4j.examples.gpu.mps.DaemonProcess}), so a
 * reused PID is never killed.
 */
package io.github.dra4j.examples.gpu.mps;
