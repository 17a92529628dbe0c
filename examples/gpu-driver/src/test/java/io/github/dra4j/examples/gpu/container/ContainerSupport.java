package io.github.dra4j.examples.gpu.container;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;

/**
 * Whether this machine can run the container tests, each missing piece turned into a skip that
 * names it: root, an installed OCI runtime, and a kernel and cgroup setup that let that runtime
 * start a container (found by starting one: crun refuses a hybrid cgroup v1/v2 setup whose v2
 * hierarchy has controllers, runc does not; a container without privileges cannot nest one).
 */
public final class ContainerSupport {
  private ContainerSupport() {}

  /**
   * Skips the calling test unless this process runs as root.
   *
   * @throws IOException if the user cannot be read
   */
  public static void assumeRoot() throws IOException {
    Object uid = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    Assumptions.assumeTrue(Integer.valueOf(0).equals(uid), "not root (uid " + uid + "); the"
        + " container tests start containers with crun or runc and need root, skipped");
  }

  /**
   * Returns the first installed runtime that can start a container with this root file system;
   * skips the calling test if there is none, naming what each runtime answered.
   *
   * @param workDir scratch space for the probe containers
   * @param rootfs the file system to probe with (copied, not changed)
   * @return the runtime
   * @throws IOException if the probe's files cannot be written
   * @throws InterruptedException if interrupted
   */
  public static OciRuntime workingRuntime(Path workDir, ContainerRootFs rootfs)
      throws IOException, InterruptedException {
    List<OciRuntime> installed = OciRuntime.installed();
    Assumptions.assumeFalse(installed.isEmpty(), "no OCI runtime: none of " + OciRuntime.NAMES
        + " is installed (apt-get install crun runc), the container tests are skipped");
    List<String> refusals = new ArrayList<>();
    for (OciRuntime runtime : installed) {
      Path dir = Files.createDirectories(workDir.resolve("probe-" + runtime.name()));
      CdiContainer containers = new CdiContainer(runtime, dir, Duration.ofSeconds(20));
      Path copy = rootfs.copyTo(dir.resolve("rootfs"));
      ContainerRun run = containers.run(List.of(), List.of(), copy,
          List.of("/sbin/ldconfig", "--version"));
      ContainerRootFs.delete(copy);
      if (run.exitCode() == 0) {
        return runtime;
      }
      refusals.add(runtime.executable() + ": exit " + run.exitCode() + ", "
          + run.stderr().strip());
    }
    Assumptions.abort("no installed OCI runtime can start a container here (kernel, cgroups or"
        + " privileges forbid it): " + String.join("; ", refusals)
        + "; the container tests are skipped");
    throw new IllegalStateException("unreachable");
  }
}
