package io.github.dra4j.cdi.spec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The lowest CDI version a spec needs: each feature that raises it (mount types, host paths,
 * device names starting with a digit, annotations, ...), at spec and at device level, and the
 * feature named as the reason, so that older runtimes can still read what they understand.
 */
class MinimumVersionTest {

  private static CdiSpec topLevel(Consumer<ContainerEdits.Builder> edits) {
    return CdiSpec.builder().kind("vendor.com/device").edits(edits).build();
  }

  private static CdiSpec deviceLevel(Consumer<ContainerEdits.Builder> edits) {
    return CdiSpec.builder().kind("vendor.com/device").device("dev", edits).build();
  }

  private static void requires(CdiSpec spec, CdiVersion version, String feature) {
    RequiredVersion required = MinimumVersion.required(spec);
    assertThat(required.version()).isEqualTo(version);
    assertThat(required.feature()).isEqualTo(feature);
    assertThat(spec.cdiVersion()).as("builder stamps the minimum").isEqualTo(version.text());
  }

  @Test
  void emptySpecNeeds030() {
    requires(CdiSpec.builder().kind("vendor.com/device").build(), CdiVersion.V0_3_0, "none");
    requires(deviceLevel(e -> e.env("A", "B").deviceNode("/dev/x")), CdiVersion.V0_3_0, "none");
  }

  @Test
  void mountTypeNeeds040() {
    Mount typed = Mount.of("/a", "/b", "bind", List.of());
    requires(topLevel(e -> e.mount(typed)), CdiVersion.V0_4_0, "containerEdits.mounts.type");
    requires(deviceLevel(e -> e.mount(typed)), CdiVersion.V0_4_0,
        "devices[dev].containerEdits.mounts.type");
    requires(deviceLevel(e -> e.mount(Mount.bind("/a", "/b"))), CdiVersion.V0_3_0, "none");
  }

  @Test
  void hostPathNeeds050EvenWhenEqualToPath() {
    DeviceNode same = DeviceNode.builder("/dev/x").hostPath("/dev/x").build();
    requires(topLevel(e -> e.deviceNode(same)), CdiVersion.V0_5_0,
        "containerEdits.deviceNodes.hostPath");
    requires(deviceLevel(e -> e.deviceNode(same)), CdiVersion.V0_5_0,
        "devices[dev].containerEdits.deviceNodes.hostPath");
  }

  @Test
  void deviceNameStartingWithADigitNeeds050() {
    for (char digit = '0'; digit <= '9'; digit++) {
      CdiSpec spec = CdiSpec.builder().kind("vendor.com/device")
          .device(digit + "dev", e -> e.env("A", "B")).build();
      requires(spec, CdiVersion.V0_5_0, "devices[" + digit + "dev].name (starts with a digit)");
    }
    requires(CdiSpec.builder().kind("vendor.com/device").device("dev0", e -> e.env("A", "B"))
        .build(), CdiVersion.V0_3_0, "none");
  }

  @Test
  void annotationsAndDotInClassNeed060() {
    requires(CdiSpec.builder().kind("vendor.com/device").annotation("key", "value").build(),
        CdiVersion.V0_6_0, "annotations");
    requires(CdiSpec.builder().kind("vendor.com/device")
        .device(Device.builder("dev").annotation("key", "value").edits(e -> e.env("A", "B"))
            .build())
        .build(), CdiVersion.V0_6_0, "devices[dev].annotations");
    requires(CdiSpec.builder().kind("vendor.com/class.sub").build(), CdiVersion.V0_6_0,
        "kind (dot in class)");
    // Dots in the vendor are fine for 0.3.0.
    requires(CdiSpec.builder().kind("a.b.c/device").build(), CdiVersion.V0_3_0, "none");
  }

  @Test
  void intelRdtAndAdditionalGidsNeed070() {
    requires(topLevel(e -> e.intelRdt(new IntelRdt("", "", "", null, false))), CdiVersion.V0_7_0,
        "containerEdits.intelRdt");
    requires(deviceLevel(e -> e.intelRdt(IntelRdt.ofClosId("foo"))), CdiVersion.V0_7_0,
        "devices[dev].containerEdits.intelRdt");
    requires(topLevel(e -> e.additionalGid(5)), CdiVersion.V0_7_0,
        "containerEdits.additionalGids");
    requires(deviceLevel(e -> e.additionalGid(0)), CdiVersion.V0_7_0,
        "devices[dev].containerEdits.additionalGids");
  }

  @Test
  void netDevicesSchemataAndMonitoringNeed110() {
    requires(CdiSpec.builder().kind("vendor.com/device").containerEdits(new ContainerEdits(null,
        null, List.of(new NetDevice("", "")), null, null, null, null)).build(),
        CdiVersion.V1_1_0, "containerEdits.netDevices");
    requires(deviceLevel(e -> e.netDevice("eno1", "net0")), CdiVersion.V1_1_0,
        "devices[dev].containerEdits.netDevices");
    requires(topLevel(e -> e.intelRdt(new IntelRdt("", "", "", List.of("L3:0=ff"), false))),
        CdiVersion.V1_1_0, "containerEdits.intelRdt.schemata");
    requires(topLevel(e -> e.intelRdt(new IntelRdt("", "", "", List.of(), false))),
        CdiVersion.V1_1_0, "containerEdits.intelRdt.schemata");
    requires(deviceLevel(e -> e.intelRdt(new IntelRdt("", "", "", null, true))),
        CdiVersion.V1_1_0, "devices[dev].containerEdits.intelRdt.enableMonitoring");
  }

  @Test
  void newestRequirementWins() {
    CdiSpec three = CdiSpec.builder().kind("vendor.com/device").annotation("key", "value")
        .edits(e -> e.deviceNode(DeviceNode.builder("/dev/x").hostPath("/dev/y").build())
            .mount(Mount.of("/a", "/b", "bind", List.of())))
        .build();
    assertThat(MinimumVersion.of(three)).isEqualTo(CdiVersion.V0_6_0);
    CdiSpec newest = CdiSpec.builder().kind("vendor.com/device").annotation("key", "value")
        .edits(e -> e.additionalGid(1).netDevice("eno1", "n0")).build();
    assertThat(MinimumVersion.of(newest)).isEqualTo(CdiVersion.V1_1_0);
  }

  @Test
  void explicitVersionIsKeptAndCanBeRestamped() {
    CdiSpec spec = CdiSpec.builder().cdiVersion(CdiVersion.V1_1_0).kind("vendor.com/device")
        .device("dev", e -> e.env("A", "B")).build();
    assertThat(spec.cdiVersion()).isEqualTo("1.1.0");
    assertThat(spec.withMinimumVersion().cdiVersion()).isEqualTo("0.3.0");
    assertThat(spec.withMinimumVersion().withCdiVersion("1.0.0").cdiVersion()).isEqualTo("1.0.0");
    assertThat(new CdiSpec("0.3.0", "vendor.com/device", Map.of(), List.of(), null)
        .containerEdits()).isEqualTo(ContainerEdits.EMPTY);
  }
}
