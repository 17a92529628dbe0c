package io.github.dra4j.examples.gpu.nvml.driverfiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.dra4j.cdi.spec.ContainerEdits;
import io.github.dra4j.cdi.spec.Hook;
import io.github.dra4j.cdi.spec.Mount;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the finder takes from a fake driver root made like a real installation (real ELF files,
 * SONAME links, a cache from the real ldconfig), and the CDI edits made of it, for a driver root
 * the host has at {@code /run/nvidia/driver}.
 */
class DriverFilesFinderTest {

  private static final String HOST = "/run/nvidia/driver";
  private static final String V = FakeDriverRoot.DEFAULT_VERSION;
  private static final List<String> RO = List.of("ro", "nosuid", "nodev", "bind");
  private static final List<String> IPC = List.of("nosuid", "nodev", "rbind", "rprivate",
      "noexec");
  private static final List<String> COMPUTE_UTILITY = List.of("libnvidia-ml.so",
      "libnvidia-cfg.so", "libcuda.so", "libcudadebugger.so", "libnvidia-opencl.so",
      "libnvidia-gpucomp.so", "libnvidia-ptxjitcompiler.so", "libnvidia-allocator.so",
      "libnvidia-pkcs11-openssl3.so", "libnvidia-nvvm.so");

  @TempDir
  Path dir;

  private DriverFiles find(FakeDriverRoot root, DriverFilesOptions options) throws Exception {
    return new DriverFilesFinder(new DriverRootFs(root.root(), Path.of(HOST)))
        .find(new DriverVersion(root.version()), options);
  }

  @Test
  void findsTheLibrariesOfComputeAndUtilityWithTheirLinksBinariesFirmwareAndSockets()
      throws Exception {
    FakeDriverRoot root = FakeDriverRoot.create(dir);
    String lib = root.libraryDir();

    DriverFiles files = find(root, DriverFilesOptions.DEFAULT);

    assertThat(files.libraries()).extracting(DriverLibrary::path)
        .containsExactlyInAnyOrderElementsOf(COMPUTE_UTILITY.stream()
            .map(root::library).toList());
    assertThat(files.libraries()).allSatisfy(l -> assertThat(l.source()).isEqualTo(
        "ld.so.cache"));
    assertThat(library(files, "libcuda.so").links()).containsExactly("libcuda.so.1");
    assertThat(library(files, "libnvidia-nvvm.so").links()).containsExactly("libnvidia-nvvm.so.4");
    assertThat(library(files, "libnvidia-gpucomp.so").links()).isEmpty();
    assertThat(files.files(DriverFile.Kind.LIBRARY)).contains(new DriverFile(
        DriverFile.Kind.LIBRARY, lib + "/libcuda.so." + V, HOST + lib + "/libcuda.so." + V));
    assertThat(files.files(DriverFile.Kind.BINARY)).extracting(DriverFile::containerPath)
        .containsExactlyInAnyOrder("/usr/bin/nvidia-smi", "/usr/bin/nvidia-debugdump",
            "/usr/bin/nvidia-persistenced", "/usr/bin/nvidia-cuda-mps-control",
            "/usr/bin/nvidia-cuda-mps-server");
    assertThat(files.files(DriverFile.Kind.FIRMWARE)).containsExactly(
        new DriverFile(DriverFile.Kind.FIRMWARE, "/lib/firmware/nvidia/" + V + "/gsp_ga10x.bin",
            HOST + "/lib/firmware/nvidia/" + V + "/gsp_ga10x.bin"),
        new DriverFile(DriverFile.Kind.FIRMWARE, "/lib/firmware/nvidia/" + V + "/gsp_tu10x.bin",
            HOST + "/lib/firmware/nvidia/" + V + "/gsp_tu10x.bin"));
    assertThat(files.files(DriverFile.Kind.SOCKET)).containsExactly(new DriverFile(
        DriverFile.Kind.SOCKET, "/run/nvidia-persistenced/socket",
        HOST + "/run/nvidia-persistenced/socket"));
    assertThat(files.files()).as("the host's own MPS pipe directory is not the claims'")
        .noneMatch(f -> f.containerPath().startsWith("/tmp/nvidia-mps"));
    assertThat(files.hookPath()).contains(HOST + "/usr/bin/nvidia-cdi-hook");
    assertThat(files.notes()).singleElement().asString()
        .contains("libnvidia-nscq.so", "libnvidia-tileiras.so").doesNotContain("libcuda.so");
  }

  @Test
  void theEditsMountEachFileFromTheHostRootAndAddTheHooksInOrder() throws Exception {
    FakeDriverRoot root = FakeDriverRoot.create(dir);
    String lib = root.libraryDir();

    ContainerEdits edits = DriverFileEdits.of(find(root, DriverFilesOptions.DEFAULT),
        DriverFilesOptions.DEFAULT);

    assertThat(edits.mounts()).contains(
        new Mount(HOST + lib + "/libcuda.so." + V, lib + "/libcuda.so." + V, RO, ""),
        new Mount(HOST + "/usr/bin/nvidia-smi", "/usr/bin/nvidia-smi", RO, ""),
        new Mount(HOST + "/run/nvidia-persistenced/socket", "/run/nvidia-persistenced/socket",
            IPC, ""));
    assertThat(edits.mounts()).hasSize(COMPUTE_UTILITY.size() + 5 + 2 + 1)
        .extracting(Mount::containerPath).doesNotHaveDuplicates()
        .noneMatch(p -> p.endsWith(".so.1"));
    String hook = HOST + "/usr/bin/nvidia-cdi-hook";
    assertThat(edits.hooks()).extracting(Hook::hookName).containsOnly("createContainer");
    assertThat(edits.hooks()).extracting(Hook::path).containsOnly(hook);
    assertThat(edits.hooks()).extracting(Hook::args).containsExactly(
        List.of("nvidia-cdi-hook", "create-symlinks",
            "--link", "libcuda.so." + V + "::" + lib + "/libcuda.so.1",
            "--link", "libcudadebugger.so." + V + "::" + lib + "/libcudadebugger.so.1",
            "--link", "libnvidia-opencl.so." + V + "::" + lib + "/libnvidia-opencl.so.1",
            "--link", "libnvidia-ptxjitcompiler.so." + V + "::" + lib
                + "/libnvidia-ptxjitcompiler.so.1",
            "--link", "libnvidia-allocator.so." + V + "::" + lib + "/libnvidia-allocator.so.1",
            "--link", "libnvidia-nvvm.so." + V + "::" + lib + "/libnvidia-nvvm.so.4",
            "--link", "libnvidia-ml.so." + V + "::" + lib + "/libnvidia-ml.so.1",
            "--link", "libnvidia-cfg.so." + V + "::" + lib + "/libnvidia-cfg.so.1",
            "--link", "libcuda.so.1::" + lib + "/libcuda.so"),
        List.of("nvidia-cdi-hook", "enable-cuda-compat", "--host-driver-version=" + V),
        List.of("nvidia-cdi-hook", "update-ldcache", "--folder", lib));
  }

  @Test
  void allCapabilitiesAddTheVideoAndGraphicsLibrariesButNeverAnotherFamily() throws Exception {
    FakeDriverRoot root = FakeDriverRoot.create(dir);
    DriverFilesOptions all = new DriverFilesOptions(Set.of(DriverCapability.values()),
        Optional.empty(), Set.of());

    DriverFiles files = find(root, all);

    assertThat(files.libraries()).extracting(DriverLibrary::name)
        .containsExactlyInAnyOrderElementsOf(FakeDriverRoot.DEFAULT_LIBRARIES.keySet());
    assertThat(DriverFileEdits.links(files)).extracting(DriverFileEdits.Link::link)
        .contains(root.libraryDir() + "/libnvidia-opticalflow.so",
            root.libraryDir() + "/libGLX_indirect.so.0", root.libraryDir() + "/libGLX_nvidia.so.0");
    assertThat(files.files()).extracting(DriverFile::containerPath)
        .noneMatch(p -> p.contains("egl-wayland"));
  }

  @Test
  void anotherVersionsLeftoverLibrariesAndFirmwareAreNotMounted() throws Exception {
    FakeDriverRoot root = FakeDriverRoot.builder(dir, V).leftoverVersion("535.104.05").build();
    assertThat(root.root().resolve(root.libraryDir().substring(1) + "/libcuda.so.535.104.05"))
        .exists();

    for (DriverFiles files : List.of(find(root, DriverFilesOptions.DEFAULT),
        findWithoutCache(root))) {
      assertThat(files.files()).extracting(DriverFile::containerPath)
          .noneMatch(p -> p.contains("535.104")).contains(root.library("libcuda.so"));
      assertThat(library(files, "libcuda.so").path()).isEqualTo(root.library("libcuda.so"));
    }
  }

  @Test
  void aCorruptLinkerCacheIsRefusedAndTheSearchFindsTheSameLibrariesAndLinks() throws Exception {
    FakeDriverRoot root = FakeDriverRoot.create(dir);
    DriverFiles fromCache = find(root, DriverFilesOptions.DEFAULT);
    Path cache = root.root().resolve("etc/ld.so.cache");
    byte[] bytes = Files.readAllBytes(cache);
    Files.write(cache, java.util.Arrays.copyOf(bytes, 100));

    DriverFiles searched = find(root, DriverFilesOptions.DEFAULT);

    assertThat(searched.notes().get(0)).startsWith("refused the linker cache: " + cache
        + ": truncated or corrupt: the header counts").contains("searching /usr/lib64");
    assertThat(searched.libraries()).allSatisfy(l -> assertThat(l.source()).isEqualTo("search"));
    assertThat(searched.libraries()).extracting(DriverLibrary::path, DriverLibrary::links)
        .containsExactlyInAnyOrderElementsOf(fromCache.libraries().stream()
            .map(l -> org.assertj.core.groups.Tuple.tuple(l.path(), l.links())).toList());
  }

  @Test
  void librariesInADirectoryOnlyTheLinkerCacheNamesAreFoundThroughIt() throws Exception {
    FakeDriverRoot root = FakeDriverRoot.builder(dir, V).libraryDir("/opt/nvidia/lib64").build();

    DriverFiles files = find(root, DriverFilesOptions.DEFAULT);

    assertThat(library(files, "libcuda.so").path()).isEqualTo("/opt/nvidia/lib64/libcuda.so." + V);
    assertThat(DriverFileEdits.of(files, DriverFilesOptions.DEFAULT).hooks())
        .last().extracting(Hook::args).isEqualTo(List.of("nvidia-cdi-hook", "update-ldcache",
            "--folder", "/opt/nvidia/lib64"));
    Files.delete(root.root().resolve("etc/ld.so.cache"));
    assertThatThrownBy(() -> find(root, DriverFilesOptions.DEFAULT))
        .isInstanceOf(DriverFilesException.class).hasMessageContaining("libcuda.so." + V);
  }

  @Test
  void withoutTheHookThereAreNoHooksAndTheLinksAreMountedAsFiles() throws Exception {
    FakeDriverRoot root = FakeDriverRoot.builder(dir, V).withoutHook().build();
    String lib = root.libraryDir();

    DriverFiles files = find(root, DriverFilesOptions.DEFAULT);
    ContainerEdits edits = DriverFileEdits.of(files, DriverFilesOptions.DEFAULT);

    assertThat(files.hookPath()).isEmpty();
    assertThat(files.notes()).filteredOn(n -> n.startsWith("nvidia-cdi-hook not found in "
        + root.root().resolve("usr/bin"))).singleElement().asString()
        .contains("NVIDIA_CDI_HOOK_PATH is not set", "no hooks");
    assertThat(edits.hooks()).isEmpty();
    assertThat(edits.mounts()).contains(
        new Mount(HOST + lib + "/libcuda.so." + V, lib + "/libcuda.so.1", RO, ""),
        new Mount(HOST + lib + "/libcuda.so." + V, lib + "/libcuda.so", RO, ""),
        new Mount(HOST + lib + "/libnvidia-ml.so." + V, lib + "/libnvidia-ml.so.1", RO, ""));
  }

  @Test
  void aConfiguredHookPathIsUsedAsTheHostGivesItAndDisabledHooksAreLeftOut() throws Exception {
    FakeDriverRoot root = FakeDriverRoot.builder(dir, V).withoutHook().build();
    DriverFilesOptions options = new DriverFilesOptions(DriverCapability.DEFAULT,
        Optional.of("/usr/local/nvidia/toolkit/nvidia-cdi-hook"),
        Set.of(CdiHook.ENABLE_CUDA_COMPAT));

    ContainerEdits edits = DriverFileEdits.of(find(root, options), options);

    assertThat(edits.hooks()).extracting(Hook::path)
        .containsOnly("/usr/local/nvidia/toolkit/nvidia-cdi-hook");
    assertThat(edits.hooks()).extracting(h -> h.args().get(1))
        .containsExactly("create-symlinks", "update-ldcache");
  }

  @Test
  void withoutLibcudaTheFinderFailsNamingTheCacheAndEveryDirectoryTried() throws Exception {
    FakeDriverRoot root = FakeDriverRoot.builder(dir, V).without("libcuda.so").build();

    assertThatThrownBy(() -> find(root, DriverFilesOptions.DEFAULT))
        .isInstanceOf(DriverFilesException.class)
        .hasMessageStartingWith("libcuda.so." + V + " (needed for the compute capability) not"
            + " found under the driver root " + root.root())
        .hasMessageContaining(root.root().resolve("etc/ld.so.cache").toString())
        .hasMessageContaining(root.root().resolve("usr/lib64") + ", ")
        .hasMessageContaining(root.root().resolve("lib/aarch64-linux-gnu").toString());
    DriverFilesOptions utility = new DriverFilesOptions(Set.of(DriverCapability.UTILITY),
        Optional.empty(), Set.of());
    assertThat(find(root, utility).libraries()).extracting(DriverLibrary::name)
        .containsExactly("libnvidia-ml.so", "libnvidia-cfg.so");
  }

  @Test
  void aHostInstallKeepsThePathsAndNvmlsSemanticVersionMatchesTheFiles() throws Exception {
    FakeDriverRoot root = FakeDriverRoot.builder(dir, "535.104.05").build();

    DriverFiles files = new DriverFilesFinder(new DriverRootFs(root.root(), Path.of("/")))
        .find(new DriverVersion("535.104.5"), DriverFilesOptions.DEFAULT);

    assertThat(files.files(DriverFile.Kind.LIBRARY)).contains(new DriverFile(
        DriverFile.Kind.LIBRARY, root.library("libcuda.so"), root.library("libcuda.so")));
    assertThat(files.files(DriverFile.Kind.FIRMWARE)).extracting(DriverFile::hostPath)
        .contains("/lib/firmware/nvidia/535.104.05/gsp_ga10x.bin");
  }

  @Test
  void theStubHookRecordsEachCallTheWayARuntimeMakesIt() throws Exception {
    FakeDriverRoot root = FakeDriverRoot.create(dir);
    DriverFiles files = new DriverFilesFinder(new DriverRootFs(root.root(), root.root()))
        .find(new DriverVersion(V), DriverFilesOptions.DEFAULT);

    for (Hook hook : DriverFileEdits.of(files, DriverFilesOptions.DEFAULT).hooks()) {
      List<String> command = new ArrayList<>(List.of(hook.path()));
      command.addAll(hook.args().subList(1, hook.args().size()));
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      process.getOutputStream().write("{\"ociVersion\":\"1.0.2\",\"id\":\"c1\"}".getBytes(
          java.nio.charset.StandardCharsets.UTF_8));
      process.getOutputStream().close();
      assertThat(process.waitFor()).isZero();
    }

    assertThat(root.hookCalls()).hasSize(3);
    assertThat(root.hookCalls().get(0)).startsWith("create-symlinks --link libcuda.so." + V);
    assertThat(root.hookCalls().get(2)).isEqualTo("update-ldcache --folder "
        + root.libraryDir());
  }

  private DriverFiles findWithoutCache(FakeDriverRoot root) throws Exception {
    Path cache = root.root().resolve("etc/ld.so.cache");
    Path aside = root.root().resolve("etc/ld.so.cache.aside");
    Files.move(cache, aside);
    try {
      DriverFiles files = find(root, DriverFilesOptions.DEFAULT);
      assertThat(files.notes().get(0)).startsWith("no linker cache " + cache);
      return files;
    } finally {
      Files.move(aside, cache);
    }
  }

  private static DriverLibrary library(DriverFiles files, String name) {
    List<DriverLibrary> found = new ArrayList<>(files.libraries().stream()
        .filter(l -> l.name().equals(name)).toList());
    assertThat(found).as(name).hasSize(1);
    return found.get(0);
  }
}
