package io.github.dra4j.examples.gpu.container;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.dra4j.cdi.spec.CdiSpec;
import io.github.dra4j.cdi.spec.ContainerEdits;
import io.github.dra4j.cdi.spec.DeviceNode;
import io.github.dra4j.cdi.spec.Hook;
import io.github.dra4j.cdi.spec.HookName;
import io.github.dra4j.cdi.spec.Mount;
import io.github.dra4j.cdi.store.SpecDirectory;
import io.github.dra4j.examples.gpu.GpuDriver;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A CUDA program in a real container started from a claim's CDI edits: the probe, linked against
 * the stub {@code libcuda.so.1}, must find the library through the linker cache the spec's hook
 * updated and see exactly the claim's GPUs. The specs here are written by the test in the shape
 * NVIDIA's driver gives a claim (common edits: control nodes, the library mount, the {@code
 * create-symlinks} and {@code update-ldcache} hooks; per device: its node). Skipped, with the
 * reason, without root, gcc, an OCI runtime, or a kernel that lets it start containers.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CudaContainerTest {
  private static final Logger LOG = LoggerFactory.getLogger(CudaContainerTest.class);
  private static final String KIND = "k8s.gpu.example.com/" + GpuDriver.CDI_CLASS;
  private static final String PROBE = "/usr/local/bin/cuda-probe";

  private CudaProbeBuild build;
  private ContainerRootFs image;
  private CdiContainer containers;
  /** The root file systems of this test's containers, deleted after it. */
  private final List<Path> rootfsCopies = new ArrayList<>();

  @BeforeAll
  void prepare(@TempDir Path shared) throws Exception {
    long start = System.nanoTime();
    ContainerSupport.assumeRoot();
    build = CudaProbeBuild.compile(Files.createDirectories(shared.resolve("build")));
    long compiled = System.nanoTime();
    image = ContainerRootFs.prepare(
        Path.of(System.getProperty("user.home"), ".cache", "dra4j", "container-rootfs"), shared);
    long prepared = System.nanoTime();
    OciRuntime runtime = ContainerSupport.workingRuntime(shared, image);
    containers = new CdiContainer(runtime, Files.createDirectories(shared.resolve("runs")),
        Duration.ofSeconds(30));
    LOG.info("Containers with {} on {}; compile {} ms, root file system {} ms, runtime probe {}"
        + " ms", runtime.executable(), image.source(), (compiled - start) / 1_000_000,
        (prepared - compiled) / 1_000_000, (System.nanoTime() - prepared) / 1_000_000);
  }

  @AfterEach
  void deleteRootfsCopies() throws Exception {
    for (Path copy : rootfsCopies) {
      ContainerRootFs.delete(copy);
    }
    rootfsCopies.clear();
  }

  @Test
  void aClaimOfGpus1And3SeesExactlyThemAndFindsLibcudaThroughTheLinkerCache(@TempDir Path dir)
      throws Exception {
    StubDriverRoot driver = StubDriverRoot.create(dir.resolve("driver"), build);
    Path specDir = writeClaimSpec(driver, dir.resolve("cdi"), true, true);

    ContainerRun run = containers.run(specDir, List.of(KIND + "=gpu-1", KIND + "=gpu-3"),
        rootfs(dir), List.of(PROBE));

    assertThat(run.exitCode()).as(run.describe()).isZero();
    assertThat(run.stdoutLines()).as(run.describe()).containsExactly(
        "libcuda " + driver.libraryDir() + "/libcuda.so.1",
        "driver-version 12080",
        "device-count 2",
        "device 0 /dev/nvidia1 195:1 Stub GPU 1",
        "device 1 /dev/nvidia3 195:3 Stub GPU 3");
    Path rootfs = run.rootfs();
    assertThat(Files.readAllLines(rootfs.resolve("etc/ld.so.conf.d/00-nvcr-stub.conf")))
        .containsExactly(driver.libraryDir());
    assertThat(Files.readSymbolicLink(rootfs.resolve(driver.libraryDir().substring(1))
        .resolve("libcuda.so"))).isEqualTo(Path.of("libcuda.so.1"));
  }

  @Test
  void withoutTheLibraryMountTheLoaderRefusesToStartTheProgram(@TempDir Path dir)
      throws Exception {
    StubDriverRoot driver = StubDriverRoot.create(dir.resolve("driver"), build);
    Path specDir = writeClaimSpec(driver, dir.resolve("cdi"), false, true);

    ContainerRun run = containers.run(specDir, List.of(KIND + "=gpu-1"), rootfs(dir),
        List.of(PROBE));

    assertThat(run.exitCode()).as(run.describe()).isEqualTo(127);
    assertThat(run.stderr()).contains(
        "error while loading shared libraries: libcuda.so.1: cannot open shared object file");
    assertThat(run.stdout()).isEmpty();
  }

  @Test
  void withTheLibraryMountedButNoHooksTheLoaderDoesNotFindIt(@TempDir Path dir) throws Exception {
    StubDriverRoot driver = StubDriverRoot.create(dir.resolve("driver"), build);
    Path specDir = writeClaimSpec(driver, dir.resolve("cdi"), true, false);

    ContainerRun run = containers.run(specDir, List.of(KIND + "=gpu-1"), rootfs(dir),
        List.of(PROBE));

    assertThat(run.exitCode()).as(run.describe()).isEqualTo(127);
    assertThat(run.stderr()).contains("libcuda.so.1: cannot open shared object file");
    assertThat(driver.hookCalls()).isEmpty();
  }

  @Test
  void theRuntimeRanTheSpecsHooksOnTheContainersRootFileSystem(@TempDir Path dir)
      throws Exception {
    StubDriverRoot driver = StubDriverRoot.create(dir.resolve("driver"), build);
    Path specDir = writeClaimSpec(driver, dir.resolve("cdi"), true, true);

    ContainerRun run = containers.run(specDir, List.of(KIND + "=gpu-0"), rootfs(dir),
        List.of(PROBE));

    assertThat(run.exitCode()).as(run.describe()).isZero();
    assertThat(driver.hookCalls()).containsExactly(
        String.join("\t", "create-symlinks", "--link",
            "libcuda.so.1::" + driver.libraryDir() + "/libcuda.so", "rootfs=" + run.rootfs()),
        String.join("\t", "update-ldcache", "--folder", driver.libraryDir(),
            "rootfs=" + run.rootfs()));
  }

  /** A fresh copy of the image with the probe installed, for one container. */
  private Path rootfs(Path dir) throws IOException, InterruptedException {
    Path rootfs = image.copyTo(dir.resolve("rootfs"));
    rootfsCopies.add(rootfs);
    Path probe = rootfs.resolve(PROBE.substring(1));
    Files.createDirectories(probe.getParent());
    Files.copy(build.probe(), probe, StandardCopyOption.COPY_ATTRIBUTES);
    return rootfs;
  }

  /**
   * Writes a claim's spec for all four GPUs: the common edits (control nodes, and if asked the
   * library mount and the hooks) and one device per GPU with its node.
   */
  private static Path writeClaimSpec(StubDriverRoot driver, Path specDir, boolean library,
      boolean hooks) throws IOException {
    ContainerEdits.Builder common = ContainerEdits.builder()
        .deviceNode(node(driver, "nvidiactl"))
        .deviceNode(node(driver, "nvidia-uvm"));
    if (library) {
      common.mount(Mount.bind(driver.library().toString(), driver.containerLibraryPath(), "ro",
          "nosuid", "nodev"));
    }
    if (hooks) {
      String hook = driver.hook().toString();
      common.hook(Hook.builder(HookName.CREATE_CONTAINER, hook).args("nvidia-cdi-hook",
          "create-symlinks", "--link", "libcuda.so.1::" + driver.libraryDir() + "/libcuda.so")
          .build());
      common.hook(Hook.builder(HookName.CREATE_CONTAINER, hook).args("nvidia-cdi-hook",
          "update-ldcache", "--folder", driver.libraryDir()).build());
    }
    CdiSpec.Builder spec = CdiSpec.builder().kind(KIND).containerEdits(common.build());
    for (int gpu = 0; gpu < StubDriverRoot.GPUS; gpu++) {
      DeviceNode node = node(driver, "nvidia" + gpu);
      spec.device("gpu-" + gpu, edits -> edits.deviceNode(node));
    }
    Files.createDirectories(specDir);
    SpecDirectory.at(specDir).writeTransient(spec.build(), "claim-5f3a");
    return specDir;
  }

  private static DeviceNode node(StubDriverRoot driver, String name) {
    return DeviceNode.builder("/dev/" + name).hostPath(driver.devNode(name).toString()).build();
  }
}
