package io.github.dra4j.testing.cdi.injection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.dra4j.cdi.spec.ContainerEdits;
import io.github.dra4j.cdi.spec.DeviceNode;
import io.github.dra4j.cdi.spec.DeviceNodeType;
import io.github.dra4j.cdi.spec.Hook;
import io.github.dra4j.cdi.spec.HookName;
import io.github.dra4j.cdi.spec.IntelRdt;
import io.github.dra4j.cdi.spec.Mount;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Applying edits as a runtime does, with real host nodes (/dev/null, a FIFO, files, links). */
class ContainerEditorTest {
  private final ContainerEditor editor = ContainerEditor.forThisHost();

  @TempDir
  Path dir;

  private OciContainer apply(OciContainer base, ContainerEdits edits) {
    return editor.apply(base, edits);
  }

  private OciContainer apply(ContainerEdits edits) {
    return apply(OciContainer.empty(), edits);
  }

  @Test
  void envReplacesKeysAddedByCdiAndAppendsAfterOriginalKeys() {
    OciContainer base = OciContainer.builder().env("PATH=/bin", "FOO=orig").build();
    OciContainer after = apply(base, ContainerEdits.builder()
        .env("FOO", "1").env("BAR", "1").env("FOO", "2").rawEnv("EMPTY=").build());
    assertThat(after.env()).containsExactly("PATH=/bin", "FOO=orig", "FOO=2", "BAR=1", "EMPTY=");
    assertThat(after.envValue("FOO")).isEqualTo("2");
    assertThat(after.envValue("EMPTY")).isEmpty();
    assertThat(after.envValue("NONE")).isNull();
  }

  @Test
  void pathOnlyNodeIsCompletedFromTheHost() {
    OciContainer after = apply(ContainerEdits.builder().deviceNode("/dev/null").build());
    assertThat(after.devices()).containsExactly(new OciDevice("/dev/null", "c", 1, 3, 0666, null,
        null));
    assertThat(after.deviceRules()).containsExactly(new OciDeviceRule(true, "c", 1, 3, "rwm"));
  }

  @Test
  void hostPathIsReadButNotCopied() {
    OciContainer after = apply(ContainerEdits.builder().deviceNode(DeviceNode.builder("/dev/gpu0")
        .hostPath("/dev/zero").permissions("rw").fileMode(0600).build()).build());
    assertThat(after.devices()).containsExactly(new OciDevice("/dev/gpu0", "c", 1, 5, 0600, null,
        null));
    assertThat(after.deviceRules()).containsExactly(new OciDeviceRule(true, "c", 1, 5, "rw"));
  }

  @Test
  void missingHostNodeFailsUnlessFullySpecified() {
    Path missing = dir.resolve("nvidia-cap1");
    assertThatThrownBy(() -> apply(ContainerEdits.builder().deviceNode(missing.toString()).build()))
        .isInstanceOf(InjectionException.class)
        .hasMessageContaining("failed to stat CDI host device \"" + missing + "\"")
        .hasCauseInstanceOf(NoSuchFileException.class);
    OciContainer after = apply(ContainerEdits.builder().deviceNode(DeviceNode.builder(
        "/dev/nvidia-caps/nvidia-cap1").hostPath(missing.toString()).type(DeviceNodeType.CHAR)
        .numbers(508, 1).build()).build());
    assertThat(after.devices()).containsExactly(
        new OciDevice("/dev/nvidia-caps/nvidia-cap1", "c", 508, 1, null, null, null));
  }

  @Test
  void symlinksAndRegularFilesAreNotDeviceNodes() throws Exception {
    Path link = Files.createSymbolicLink(dir.resolve("card-link"), Path.of("/dev/null"));
    Path file = Files.writeString(dir.resolve("regular"), "x");
    for (Path path : List.of(link, file)) {
      assertThatThrownBy(() -> apply(ContainerEdits.builder().deviceNode(path.toString()).build()))
          .isInstanceOf(InjectionException.class).hasMessageContaining("not a device node");
    }
    OciContainer declared = apply(ContainerEdits.builder().deviceNode(DeviceNode.builder(
        link.toString()).type("c").numbers(226, 0).build()).build());
    assertThat(declared.devices()).containsExactly(
        new OciDevice(link.toString(), "c", 226, 0, null, null, null));
  }

  @Test
  void fifoGetsNoCgroupRule() throws Exception {
    Path fifo = dir.resolve("fifo");
    Process mkfifo = new ProcessBuilder("mkfifo", "-m", "0640", fifo.toString()).start();
    assertThat(mkfifo.waitFor(1, TimeUnit.MINUTES)).isTrue();
    assertThat(mkfifo.exitValue()).isZero();
    OciContainer after = apply(ContainerEdits.builder().deviceNode(fifo.toString()).build());
    assertThat(after.devices()).containsExactly(
        new OciDevice(fifo.toString(), "p", 0, 0, 0640, null, null));
    assertThat(after.deviceRules()).isEmpty();
  }

  @Test
  void declaredTypeMustMatchTheHost() {
    assertThatThrownBy(() -> apply(ContainerEdits.builder().deviceNode(
        DeviceNode.builder("/dev/null").type(DeviceNodeType.BLOCK).build()).build()))
        .isInstanceOf(InjectionException.class)
        .hasMessageContaining("host type mismatch (b, c)");
  }

  @Test
  void fullySpecifiedNodeKeepsItsNumbersButTakesTheHostMode() {
    OciContainer after = apply(ContainerEdits.builder().deviceNode(DeviceNode.builder(
        "/dev/null").type("c").numbers(10, 200).build()).build());
    assertThat(after.devices()).containsExactly(
        new OciDevice("/dev/null", "c", 10, 200, 0666, null, null));
  }

  @Test
  void typeWithoutMajorTakesBothNumbersFromTheHost() {
    OciContainer after = apply(ContainerEdits.builder().deviceNode(DeviceNode.builder(
        "/dev/zero").type("c").build()).build());
    assertThat(after.devices().get(0).major()).isEqualTo(1);
    assertThat(after.devices().get(0).minor()).isEqualTo(5);
  }

  @Test
  void ownerDefaultsToANonRootProcessUser() {
    ContainerEdits edits = ContainerEdits.builder().deviceNode("/dev/null")
        .deviceNode(DeviceNode.builder("/dev/zero").uid(0).gid(7).build()).build();
    OciContainer asUser = apply(OciContainer.builder().user(1000, 2000).build(), edits);
    assertThat(asUser.devices()).extracting(OciDevice::uid).containsExactly(1000L, 0L);
    assertThat(asUser.devices()).extracting(OciDevice::gid).containsExactly(2000L, 7L);
    OciContainer asRoot = apply(edits);
    assertThat(asRoot.devices()).extracting(OciDevice::uid).containsExactly(null, 0L);
  }

  @Test
  void redeclaredPathMovesToTheEndAndRulesAreNotDeduplicated() {
    OciContainer base = OciContainer.builder()
        .device(new OciDevice("/dev/null", "c", 1, 3, null, null, null))
        .device(new OciDevice("/dev/zero", "c", 1, 5, null, null, null))
        .deviceRule(new OciDeviceRule(true, "c", 1, 3, "rwm")).build();
    OciContainer after = apply(base, ContainerEdits.builder().deviceNode("/dev/null").build());
    assertThat(after.devices()).extracting(OciDevice::path)
        .containsExactly("/dev/zero", "/dev/null");
    assertThat(after.deviceRules()).hasSize(2);
  }

  @Test
  void unbufferedCharNodeGetsNoCgroupRule() {
    OciContainer after = apply(ContainerEdits.builder().deviceNode(DeviceNode.builder("/dev/u0")
        .type(DeviceNodeType.UNBUFFERED_CHAR).numbers(4, 64).build()).build());
    assertThat(after.devices()).hasSize(1);
    assertThat(after.deviceRules()).isEmpty();
  }

  @Test
  void mountsReplaceTheSameDestinationAndAreSortedByDepth() {
    OciContainer base = OciContainer.builder()
        .mount(new OciMount("/dest/path/b", "", "/b", List.of()))
        .mount(new OciMount("/dest/path/a", "", "/a", List.of()))
        .build();
    OciContainer after = apply(base, ContainerEdits.builder()
        .mount(Mount.bind("/host/edit", "/dest/edit", "ro")).build());
    assertThat(after.mounts()).extracting(OciMount::destination)
        .containsExactly("/dest/edit", "/dest/path/b", "/dest/path/a");
    assertThat(after.mounts().get(0)).isEqualTo(
        new OciMount("/dest/edit", "", "/host/edit", List.of("ro", "bind")));

    OciContainer replaced = apply(after, ContainerEdits.builder()
        .mount(Mount.of("tmpfs", "/dest/path/b", "tmpfs", List.of("size=1m"))).build());
    assertThat(replaced.mounts()).extracting(OciMount::destination)
        .containsExactly("/dest/edit", "/dest/path/a", "/dest/path/b");
    assertThat(replaced.mounts().get(2).type()).isEqualTo("tmpfs");
    assertThat(replaced.mounts().get(2).source()).isEqualTo("tmpfs");
  }

  @Test
  void sortingMovesPreexistingMountsOnlyWhenEditsAddMounts() {
    OciContainer base = OciContainer.builder()
        .mount(new OciMount("/a/b/c", "", "/x", List.of()))
        .mount(new OciMount("/x", "", "/x", List.of())).build();
    assertThat(apply(base, ContainerEdits.builder().env("A", "B").build()).mounts())
        .extracting(OciMount::destination).containsExactly("/a/b/c", "/x");
    assertThat(apply(base, new ContainerEdits(null, null, null, null,
        List.of(new Mount("/y", "/y/../y/", List.of("bind"), "")), null, null))
        .mounts()).extracting(OciMount::destination).containsExactly("/x", "/y/../y/", "/a/b/c");
  }

  @Test
  void hooksAreAppendedPerLifecyclePoint() {
    OciContainer base = OciContainer.builder()
        .hook(HookName.CREATE_RUNTIME, new OciHook("/orig", List.of(), List.of(), null)).build();
    OciContainer after = apply(base, ContainerEdits.builder()
        .hook(Hook.builder(HookName.CREATE_RUNTIME, "/h1").args("h1", "-v").timeout(3).build())
        .hook(Hook.builder(HookName.POSTSTOP, "/h2").env("K", "V").build())
        .hook(Hook.builder(HookName.CREATE_RUNTIME, "/h1").build())
        .build());
    assertThat(after.hooks(HookName.CREATE_RUNTIME)).containsExactly(
        new OciHook("/orig", List.of(), List.of(), null),
        new OciHook("/h1", List.of("h1", "-v"), List.of(), 3),
        new OciHook("/h1", List.of(), List.of(), null));
    assertThat(after.hooks(HookName.POSTSTOP)).containsExactly(
        new OciHook("/h2", List.of(), List.of("K=V"), null));
    assertThat(after.hooks(HookName.PRESTART)).isEmpty();
  }

  @Test
  void intelRdtIsReplacedNetDevicesMappedAndGidsAddedOnce() {
    OciContainer base = OciContainer.builder().additionalGid(5)
        .intelRdt(IntelRdt.ofClosId("old")).netDevice("eno1", "old0").build();
    OciContainer after = apply(base, ContainerEdits.builder()
        .intelRdt(IntelRdt.ofClosId("new")).additionalGid(0).additionalGid(5).additionalGid(6)
        .additionalGid(6).netDevice("eno1", "net0").netDevice("eno2", "net1").build());
    assertThat(after.intelRdt().closID()).isEqualTo("new");
    assertThat(after.additionalGids()).containsExactly(5L, 6L);
    assertThat(after.netDevices()).containsExactly(
        java.util.Map.entry("eno1", "net0"), java.util.Map.entry("eno2", "net1"));
    assertThat(apply(base, ContainerEdits.EMPTY).intelRdt().closID()).isEqualTo("old");
  }

  @Test
  void aFailingNodeAppliesNothing() {
    OciContainer base = OciContainer.builder().env("A=1").build();
    assertThatThrownBy(() -> apply(base, ContainerEdits.builder().env("B", "2")
        .deviceNode(dir.resolve("missing").toString()).build()))
        .isInstanceOf(InjectionException.class);
    assertThat(base.env()).containsExactly("A=1");
  }

  @Test
  void customHostLookupModelsHardwareThisMachineLacks() {
    ContainerEditor gpuHost = new ContainerEditor(path -> {
      if (path.equals("/dev/nvidia0")) {
        return new HostNode("c", 195, 0, 0666);
      }
      throw new NoSuchFileException(path);
    });
    OciContainer after = gpuHost.apply(OciContainer.empty(),
        ContainerEdits.builder().deviceNode("/dev/nvidia0").build());
    assertThat(after.devices()).containsExactly(
        new OciDevice("/dev/nvidia0", "c", 195, 0, 0666, null, null));
  }
}
