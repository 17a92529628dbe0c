package io.github.dra4j.examples.gpu.nvml;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.examples.gpu.container.CdiContainer;
import io.github.dra4j.examples.gpu.container.ContainerRootFs;
import io.github.dra4j.examples.gpu.container.ContainerRun;
import io.github.dra4j.examples.gpu.container.ContainerSupport;
import io.github.dra4j.examples.gpu.container.CudaProbeBuild;
import io.github.dra4j.examples.gpu.container.OciRuntime;
import io.github.dra4j.examples.gpu.mps.MpsDirectories;
import io.github.dra4j.examples.gpu.mps.MpsStubs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The end-to-end proof on the driver's own CDI specs: the GPU driver runs on the NVML stub with a
 * fake driver root ({@link ContainerGpuNode}), the fake kubelet prepares claims, and a real
 * container is started from the spec directory the plugin wrote and the CDI device names the
 * prepare answered. In it, the probe (linked against the stub {@code libcuda.so.1}) must start,
 * find libcuda in the driver's library folder through the linker cache the driver's hooks
 * updated, and see exactly the claim's GPUs; the inspector reports the nodes, mounts, links and
 * variables. Skipped, with the reason, without root, gcc, an OCI runtime, or a kernel that lets
 * it start containers.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DriverSpecsContainerTest {
  private static final Logger LOG = LoggerFactory.getLogger(DriverSpecsContainerTest.class);
  private static final String PROBE = "/usr/local/bin/cuda-probe";
  private static final String INSPECT = "/usr/local/bin/inspect";

  private CudaProbeBuild build;
  private ContainerRootFs image;
  private CdiContainer containers;
  private ContainerGpuNode gpus;
  private String libDir;
  /** The two-GPU claim (gpu-1 and gpu-3) the tests share, prepared once. */
  private ResourceClaim pair;
  private List<String> pairDevices;
  private final List<Path> rootfsCopies = new ArrayList<>();

  @BeforeAll
  void start(@TempDir Path shared) throws Exception {
    long start = System.nanoTime();
    ContainerSupport.assumeRoot();
    build = CudaProbeBuild.compile(Files.createDirectories(shared.resolve("build")));
    Path nvml = NvmlStub.compile(Files.createDirectories(shared.resolve("nvml")));
    image = ContainerRootFs.prepare(
        Path.of(System.getProperty("user.home"), ".cache", "dra4j", "container-rootfs"), shared);
    OciRuntime runtime = ContainerSupport.workingRuntime(shared, image);
    containers = new CdiContainer(runtime, Files.createDirectories(shared.resolve("runs")),
        Duration.ofSeconds(30));
    long ready = System.nanoTime();
    gpus = ContainerGpuNode.start(shared, nvml, build);
    libDir = gpus.files().libraryDir();
    pair = gpus.claimOf("pair", "gpu-1", "gpu-3");
    pairDevices = gpus.prepare(pair);
    LOG.info("Containers with {} on {}; builds and runtime probe {} ms, driver root, node and"
        + " prepare {} ms; the pair's CDI devices {}", runtime.executable(), image.source(),
        (ready - start) / 1_000_000, (System.nanoTime() - ready) / 1_000_000, pairDevices);
  }

  @AfterAll
  void stop() throws Exception {
    if (gpus != null) {
      try {
        gpus.release(pair);
      } finally {
        gpus.close();
      }
    }
  }

  @AfterEach
  void deleteRootfsCopies() throws Exception {
    for (Path copy : rootfsCopies) {
      ContainerRootFs.delete(copy);
    }
    rootfsCopies.clear();
  }

  @Test
  void aTwoGpuClaimsContainerFindsLibcudaThroughTheHookUpdatedCacheAndSeesExactlyItsGpus(
      @TempDir Path dir) throws Exception {
    String firmware = "/lib/firmware/nvidia/" + NvmlStub.DRIVER_VERSION + "/gsp_ga10x.bin";

    ContainerRun run = containers.run(gpus.cdiDirectory(), pairDevices, rootfs(dir), List.of(
        INSPECT, "--ls", "/dev", "/dev/nvidia1", "/dev/nvidia3", "/dev/nvidiactl",
        "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools", "/dev/nvidia-modeset",
        "--mount", "/usr/bin/nvidia-smi", "--cat", "/usr/bin/nvidia-smi",
        libDir + "/libcuda.so.1", libDir + "/libcuda.so", libDir + "/libnvidia-ml.so.1",
        "--cat", firmware, "/run/nvidia-persistenced/socket", "--", PROBE));
    LOG.info("The two-GPU claim's container:\n{}", run.describe());

    assertThat(run.exitCode()).as(run.describe()).isZero();
    List<String> lines = run.stdoutLines();
    assertThat(lines.get(0)).startsWith("ls /dev ");
    assertThat(List.of(lines.get(0).split(" "))).as("NVIDIA's nodes in the container's /dev")
        .filteredOn(name -> name.startsWith("nvidia")).containsExactly("nvidia-modeset",
            "nvidia-uvm", "nvidia-uvm-tools", "nvidia1", "nvidia3", "nvidiactl");
    assertThat(lines).as(run.describe()).contains(
        "stat /dev/nvidia1 char 195:1", "stat /dev/nvidia3 char 195:3",
        "stat /dev/nvidiactl char 195:255", "stat /dev/nvidia-uvm char 511:0",
        "stat /dev/nvidia-uvm-tools char 511:1", "stat /dev/nvidia-modeset char 195:254",
        "cat /usr/bin/nvidia-smi #!/bin/sh",
        "stat " + libDir + "/libcuda.so.1 symlink libcuda.so." + NvmlStub.DRIVER_VERSION,
        "stat " + libDir + "/libcuda.so symlink libcuda.so.1",
        "stat " + libDir + "/libnvidia-ml.so.1 symlink libnvidia-ml.so."
            + NvmlStub.DRIVER_VERSION,
        "cat " + firmware + " firmware",
        "stat /run/nvidia-persistenced/socket socket");
    assertThat(lines).filteredOn(l -> l.startsWith("mount /usr/bin/nvidia-smi "))
        .singleElement().extracting(l -> List.of(l.split(" ", -1)[2].split(",", -1)))
        .asInstanceOf(InstanceOfAssertFactories.LIST).as("a read-only bind mount")
        .contains("ro", "nosuid", "nodev");
    assertThat(lines).as(run.describe()).endsWith(
        "libcuda " + libDir + "/libcuda.so.1",
        "driver-version 12080",
        "device-count 2",
        "device 0 /dev/nvidia1 195:1 Stub GPU 1",
        "device 1 /dev/nvidia3 195:3 Stub GPU 3");
    assertThat(Files.readAllLines(run.rootfs().resolve("etc/ld.so.conf.d/00-nvcr-stub.conf")))
        .as("update-ldcache listed the driver's library folder").containsExactly(libDir);
    assertThat(run.rootfs().resolve("etc/ld.so.conf.d/00-compat-stub.conf"))
        .as("no forward-compatibility libraries in the image").doesNotExist();
    String rootfsArg = "rootfs=" + run.rootfs();
    assertThat(hookCalls()).filteredOn(l -> l.endsWith(rootfsArg))
        .extracting(l -> l.substring(0, l.indexOf('\t')))
        .containsExactly("create-symlinks", "enable-cuda-compat", "update-ldcache");
    assertThat(hookCalls()).filteredOn(l -> l.endsWith(rootfsArg)).satisfiesExactly(
        symlinks -> assertThat(symlinks.split("\t")).contains(
            "libcuda.so.1::" + libDir + "/libcuda.so",
            "libcuda.so." + NvmlStub.DRIVER_VERSION + "::" + libDir + "/libcuda.so.1"),
        compat -> assertThat(compat.split("\t")).contains(
            "--host-driver-version=" + NvmlStub.DRIVER_VERSION),
        ldcache -> assertThat(ldcache.split("\t")).containsSubsequence("--folder", libDir));
  }

  @Test
  void withoutTheCommonDeviceTheLoaderCannotFindLibcuda(@TempDir Path dir) throws Exception {
    List<String> withoutCommon = pairDevices.stream().filter(d -> !d.endsWith("=common"))
        .toList();
    assertThat(withoutCommon).as("the answer names the common device").hasSize(
        pairDevices.size() - 1);

    ContainerRun run = containers.run(gpus.cdiDirectory(), withoutCommon, rootfs(dir), List.of(
        INSPECT, "/dev/nvidia1", "/dev/nvidia3", "/dev/nvidiactl", "/usr/bin/nvidia-smi", "--",
        PROBE));

    assertThat(run.exitCode()).as(run.describe()).isEqualTo(127);
    assertThat(run.stderr()).contains(
        "error while loading shared libraries: libcuda.so.1: cannot open shared object file");
    assertThat(run.stdoutLines()).containsExactly("stat /dev/nvidia1 char 195:1",
        "stat /dev/nvidia3 char 195:3", "stat /dev/nvidiactl missing",
        "stat /usr/bin/nvidia-smi missing");
  }

  @Test
  void anImagesNewerForwardCompatibleLibcudaIsPreferredThroughTheCompatHook(@TempDir Path dir)
      throws Exception {
    Path rootfs = rootfs(dir);
    Path compat = Files.createDirectories(rootfs.resolve("usr/local/cuda/compat"));
    Files.copy(build.library(), compat.resolve("libcuda.so.580.65.06"));
    Files.createSymbolicLink(compat.resolve("libcuda.so.1"), Path.of("libcuda.so.580.65.06"));

    ContainerRun run = containers.run(gpus.cdiDirectory(), pairDevices, rootfs, List.of(PROBE));

    assertThat(run.exitCode()).as(run.describe()).isZero();
    assertThat(run.stdoutLines()).as(run.describe()).startsWith(
        "libcuda /usr/local/cuda/compat/libcuda.so.1");
    assertThat(Files.readAllLines(rootfs.resolve("etc/ld.so.conf.d/00-compat-stub.conf")))
        .containsExactly("/usr/local/cuda/compat");
  }

  @Test
  void anMpsClaimsContainerSeesItsDaemonsPipeDirectoryAndSharedMemory(@TempDir Path dir)
      throws Exception {
    ResourceClaim claim = gpus.mpsClaimOf("mps", "gpu-0");
    List<String> devices = gpus.prepare(claim);
    try {
      List<Long> daemons = gpus.mps().runningDaemons();
      assertThat(daemons).hasSize(1);
      String pidFile = MpsDirectories.CONTAINER_PIPE_DIRECTORY + "/" + MpsDirectories.PID_FILE;

      ContainerRun run = containers.run(gpus.cdiDirectory(), devices, rootfs(dir), List.of(
          INSPECT, "--env", "CUDA_MPS_PIPE_DIRECTORY", "--ls", "/tmp/nvidia-mps",
          "--cat", pidFile, "--mount", "/tmp/nvidia-mps", "--ls", "/dev/shm", "--", PROBE));
      LOG.info("The MPS claim's container:\n{}", run.describe());

      assertThat(run.exitCode()).as(run.describe()).isZero();
      assertThat(run.stdoutLines()).as(run.describe()).contains(
          "env CUDA_MPS_PIPE_DIRECTORY=/tmp/nvidia-mps",
          "ls /tmp/nvidia-mps " + MpsDirectories.PID_FILE,
          "cat " + pidFile + " " + daemons.get(0),
          "device-count 1", "device 0 /dev/nvidia0 195:0 Stub GPU 0");
      assertThat(run.stdoutLines()).filteredOn(l -> l.startsWith("mount /tmp/nvidia-mps "))
          .singleElement().asString().startsWith("mount /tmp/nvidia-mps rw");
      if (MpsStubs.canIsolateShm()) {
        assertThat(run.stdoutLines()).as("the daemon's /dev/shm is the container's")
            .contains("ls /dev/shm mps-stub-daemon");
      }
    } finally {
      gpus.release(claim);
    }
    assertThat(gpus.mps().runningDaemons()).as("unprepare stopped the daemon").isEmpty();
  }

  /** The stub hook's calls so far. */
  private List<String> hookCalls() throws IOException {
    Path calls = gpus.root().resolve("usr/bin/calls");
    return Files.exists(calls) ? Files.readAllLines(calls) : List.of();
  }

  /** A fresh copy of the image with the probe and the inspector, for one container. */
  private Path rootfs(Path dir) throws IOException, InterruptedException {
    Path rootfs = image.copyTo(dir.resolve("rootfs"));
    rootfsCopies.add(rootfs);
    for (Path program : List.of(build.probe(), build.inspector())) {
      Path target = rootfs.resolve("usr/local/bin").resolve(program.getFileName());
      Files.createDirectories(target.getParent());
      Files.copy(program, target, StandardCopyOption.COPY_ATTRIBUTES);
    }
    return rootfs;
  }
}
