package io.github.dra4j.cdi.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.dra4j.cdi.spec.CdiSpec;
import io.github.dra4j.cdi.spec.ContainerEdits;
import io.github.dra4j.cdi.spec.Device;
import io.github.dra4j.cdi.spec.DeviceNode;
import io.github.dra4j.cdi.spec.Hook;
import io.github.dra4j.cdi.spec.HookName;
import io.github.dra4j.cdi.spec.IntelRdt;
import io.github.dra4j.cdi.spec.Mount;
import io.github.dra4j.cdi.spec.NetDevice;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The writer rules: stricter than the library where a runtime would fail later. */
class WriterRulesTest {

  private static CdiSpec specWith(Consumer<ContainerEdits.Builder> edits) {
    return CdiSpec.builder().kind("vendor.com/gpu").device("gpu0", edits).build();
  }

  /**
   * A spec whose device has these edits, made with the record constructors: the builders refuse
   * the values these tests give the validator (ContainerEditsChecksTest), while a spec read from
   * a file or made with the constructors can still hold them.
   */
  private static CdiSpec rawSpec(List<String> env, List<DeviceNode> nodes, List<NetDevice> net,
      List<Hook> hooks, List<Mount> mounts, IntelRdt rdt) {
    return CdiSpec.builder().kind("vendor.com/gpu").device(Device.of("gpu0",
        new ContainerEdits(env, nodes, net, hooks, mounts, rdt, null))).build();
  }

  private static CdiSpec withNode(DeviceNode node) {
    return rawSpec(null, List.of(node), null, null, null, null);
  }

  private static DeviceNode node(String path, String hostPath, String type, Integer fileMode) {
    return new DeviceNode(path, hostPath, type, type.isEmpty() ? 0 : 1, 1, fileMode, "", null,
        null);
  }

  private static CdiSpec withMount(Mount mount) {
    return rawSpec(null, null, null, null, List.of(mount), null);
  }

  private static CdiSpec withHook(Hook hook) {
    return rawSpec(null, null, null, List.of(hook), null, null);
  }

  private static List<SpecProblem> runtime(CdiSpec spec) {
    return SpecValidator.problems(spec, ValidationRules.RUNTIME);
  }

  private static List<SpecProblem> writer(CdiSpec spec) {
    return SpecValidator.problems(spec, ValidationRules.WRITER);
  }

  /** Accepted by the runtime rules, refused by the writer rules with this field and reason. */
  private static void onlyWriterRefuses(CdiSpec spec, String field, String reason) {
    assertThat(runtime(spec)).isEmpty();
    assertThat(writer(spec)).singleElement().satisfies(p -> {
      assertThat(p.field()).isEqualTo(field);
      assertThat(p.reason()).contains(reason);
    });
  }

  @ParameterizedTest
  @ValueSource(strings = {"dev/null", "/dev/../dev/null", "/dev//null", "/dev/null/", "/dev/./x",
      "/dev/\u0000x"})
  void deviceNodePathsMustBeAbsoluteAndNormalized(String path) {
    onlyWriterRefuses(withNode(node(path, "", "", null)),
        "devices[0].containerEdits.deviceNodes[0].path", "path");
  }

  @Test
  void hostPathMountPathsAndHookPathsMustBeAbsolute() {
    onlyWriterRefuses(withNode(node("/dev/x", "x", "", null)),
        "devices[0].containerEdits.deviceNodes[0].hostPath", "absolute");
    onlyWriterRefuses(withMount(new Mount("/host", "container", List.of("bind"), "")),
        "devices[0].containerEdits.mounts[0].containerPath", "absolute");
    onlyWriterRefuses(withMount(new Mount("host", "/c", List.of("bind"), "")),
        "devices[0].containerEdits.mounts[0].hostPath", "absolute");
    onlyWriterRefuses(withHook(new Hook("createRuntime", "hook", null, null, null)),
        "devices[0].containerEdits.hooks[0].path", "absolute");
  }

  @Test
  void typedMountMayUseAPseudoSource() {
    CdiSpec spec = specWith(e -> e.mount(Mount.of("tmpfs", "/scratch", "tmpfs", List.of("rw"))));
    assertThat(writer(spec)).isEmpty();
  }

  @Test
  void rootPathIsAbsoluteAndNormalized() {
    assertThat(writer(specWith(e -> e.mount(Mount.bind("/", "/host"))))).isEmpty();
  }

  @Test
  void oneCharacterVendorOrClassIsRefusedByBothRuleSets() {
    CdiSpec spec = CdiSpec.builder().kind("a/b").device("d0", e -> e.env("A", "B")).build();
    assertThat(runtime(spec)).extracting(SpecProblem::reason)
        .allMatch(r -> r.contains("at least 2 characters")).hasSize(2);
    assertThat(writer(spec)).hasSize(2);
  }

  @Test
  void vendorMustBeALowerCaseDnsSubdomain() {
    for (String kind : List.of("Vendor.com/gpu", "ven_dor.com/gpu", "vendor..com/gpu",
        "vendor-.com/gpu")) {
      CdiSpec spec = CdiSpec.builder().kind(kind).device("d0", e -> e.env("A", "B")).build();
      assertThat(writer(spec)).as(kind).extracting(SpecProblem::field).containsExactly("kind");
    }
    CdiSpec upper = CdiSpec.builder().kind("Vendor.com/gpu").device("d0", e -> e.env("A", "B"))
        .build();
    assertThat(runtime(upper)).isEmpty();
  }

  @Test
  void annotationsAreCheckedOnlyByTheWriter() {
    CdiSpec spec = CdiSpec.builder().kind("vendor.com/gpu").annotation("bad key!", "v")
        .device("d0", e -> e.env("A", "B")).build();
    onlyWriterRefuses(spec, "annotations", "invalid annotation key");
    CdiSpec good = CdiSpec.builder().kind("vendor.com/gpu").annotation("example.com/Key_1", "v")
        .device(io.github.dra4j.cdi.spec.Device.builder("d0").annotation("plain", "x")
            .edits(e -> e.env("A", "B")).build())
        .build();
    assertThat(writer(good)).isEmpty();
    CdiSpec deviceLevel = CdiSpec.builder().kind("vendor.com/gpu")
        .device(io.github.dra4j.cdi.spec.Device.builder("d0").annotation("a/b/c", "x")
            .edits(e -> e.env("A", "B")).build())
        .build();
    onlyWriterRefuses(deviceLevel, "devices[0].annotations", "at most one '/'");
  }

  @Test
  void annotationsAreLimitedTo256KiB() {
    String big = "x".repeat(AnnotationRules.MAX_TOTAL_BYTES);
    CdiSpec spec = CdiSpec.builder().kind("vendor.com/gpu").annotation("k", big)
        .device("d0", e -> e.env("A", "B")).build();
    onlyWriterRefuses(spec, "annotations", "at most 262144 bytes");
    CdiSpec fits = CdiSpec.builder().kind("vendor.com/gpu").annotation("k", big.substring(1))
        .device("d0", e -> e.env("A", "B")).build();
    assertThat(writer(fits)).isEmpty();
  }

  @Test
  void hookTimeoutMustBePositive() {
    onlyWriterRefuses(withHook(new Hook("poststop", "/h", null, null, 0)),
        "devices[0].containerEdits.hooks[0].timeout", "greater than 0");
    assertThat(writer(specWith(e -> e.hook(Hook.builder(HookName.POSTSTOP, "/h").timeout(1)
        .build())))).isEmpty();
  }

  @Test
  void rootClosIdIsRefusedForOlderRuntimes() {
    onlyWriterRefuses(rawSpec(null, null, null, null, null, new IntelRdt("/", "", "", null, false)),
        "devices[0].containerEdits.intelRdt.closID", "older than CDI v1.1.0");
  }

  @ParameterizedTest
  @ValueSource(strings = {"a-name-that-is-16", "a b", "a/b", "a:b", "..", "."})
  void interfaceNamesMustBeLinuxNames(String name) {
    onlyWriterRefuses(rawSpec(null, null, List.of(new NetDevice("eno1", name)), null, null, null),
        "devices[0].containerEdits.netDevices[0].name", "not a Linux interface name");
  }

  @Test
  void fifteenCharacterInterfaceNameIsAccepted() {
    assertThat(writer(specWith(e -> e.netDevice("eno1", "a-name-that-15c")))).isEmpty();
  }

  @Test
  void fileModeHoldsPermissionBitsOnly() {
    onlyWriterRefuses(withNode(node("/dev/x", "", "c", 0020666)),
        "devices[0].containerEdits.deviceNodes[0].fileMode", "permission bits");
    assertThat(writer(specWith(e -> e.deviceNode(DeviceNode.builder("/dev/x").type("c")
        .numbers(1, 1).fileMode(07777).build())))).isEmpty();
  }

  @Test
  void writerRefusesALeadingV() {
    CdiSpec spec = specWith(e -> e.env("A", "B")).withCdiVersion("v0.3.0");
    onlyWriterRefuses(spec, "cdiVersion", "without a leading 'v'");
  }

  @Test
  void exceptionNamesSourceDeviceAndField() {
    CdiSpec spec = rawSpec(List.of("NOVALUE"), List.of(node("relative", "", "", null)), null, null,
        null, null);
    assertThatThrownBy(() -> SpecValidator.check(spec, ValidationRules.WRITER, "/x/y.json"))
        .isInstanceOf(InvalidSpecException.class)
        .hasMessageContaining("/x/y.json")
        .hasMessageContaining("device \"gpu0\": devices[0].containerEdits.env[0] \"NOVALUE\"")
        .hasMessageContaining("devices[0].containerEdits.deviceNodes[0].path \"relative\"")
        .satisfies(e -> assertThat(((InvalidSpecException) e).problems()).hasSize(2));
  }
}
