package io.github.dra4j.testing.cdi.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.dra4j.cdi.name.Kind;
import io.github.dra4j.cdi.spec.CdiSpec;
import io.github.dra4j.cdi.store.SpecDirectory;
import io.github.dra4j.testing.cdi.injection.OciContainer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Loading spec directories as a runtime does: priorities, conflicts, invalid and odd entries,
 * linked directories, and resolution of device names in request order.
 */
class CdiRegistryTest {
  @TempDir
  Path root;
  private Path etc;
  private Path run;

  @BeforeEach
  void directories() throws IOException {
    etc = Files.createDirectories(root.resolve("etc/cdi"));
    run = Files.createDirectories(root.resolve("var/run/cdi"));
  }

  private CdiRegistry load() {
    return CdiRegistry.load(List.of(etc, run));
  }

  /** A YAML spec of kind vendor1.com/device whose devices set env ORIGIN=origin. */
  private static Path yamlSpec(Path file, String origin, String... devices) throws IOException {
    StringBuilder yaml = new StringBuilder(
        "cdiVersion: \"0.3.0\"\nkind: \"vendor1.com/device\"\ndevices:\n");
    for (String device : devices) {
      yaml.append("  - name: \"").append(device).append("\"\n    containerEdits:\n")
          .append("      env: [\"ORIGIN=").append(origin).append("\"]\n");
    }
    return Files.writeString(file, yaml.toString());
  }

  private static String origin(CdiRegistry registry, String device) {
    return registry.inject(List.of(device), OciContainer.empty()).envValue("ORIGIN");
  }

  @Test
  void higherPriorityDirectoryShadowsLowerOne() throws Exception {
    Path low = yamlSpec(etc.resolve("vendor1.yaml"), "etc", "dev1", "dev2");
    Path high = yamlSpec(run.resolve("vendor1.yaml"), "run", "dev1");

    CdiRegistry registry = load();

    assertThat(registry.errors()).isEmpty();
    assertThat(registry.device("vendor1.com/device=dev1").orElseThrow().specFile().path())
        .isEqualTo(high);
    assertThat(registry.device("vendor1.com/device=dev2").orElseThrow().specFile().path())
        .isEqualTo(low);
    assertThat(origin(registry, "vendor1.com/device=dev1")).isEqualTo("run");
    assertThat(origin(registry, "vendor1.com/device=dev2")).isEqualTo("etc");
    assertThat(registry.specFiles()).extracting(SpecFile::priority).containsExactly(0, 1);
  }

  @Test
  void sameDeviceInTwoFilesOfOneDirectoryIsAConflict() throws Exception {
    Path a = yamlSpec(run.resolve("a.yaml"), "a", "dev1", "devA");
    Path b = yamlSpec(run.resolve("b.yaml"), "b", "devB", "dev1");

    CdiRegistry registry = load();

    assertThat(registry.device("vendor1.com/device=dev1")).isEmpty();
    assertThat(registry.deviceNames())
        .containsExactly("vendor1.com/device=devA", "vendor1.com/device=devB");
    assertThat(registry.errors(a)).singleElement().asString()
        .contains("conflicting device \"vendor1.com/device=dev1\"").contains(a.toString())
        .contains(b.toString());
    assertThat(registry.errors(b)).isEqualTo(registry.errors(a));
    assertThatThrownBy(() -> registry.resolve(List.of("vendor1.com/device=devA",
        "vendor1.com/device=dev1")))
        .isInstanceOf(UnresolvableDevicesException.class)
        .hasMessage("unresolvable CDI devices vendor1.com/device=dev1");
  }

  @Test
  void conflictStaysUnresolvableEvenIfAHigherDirectoryDefinesTheDevice() throws Exception {
    yamlSpec(etc.resolve("a.yaml"), "a", "dev1");
    yamlSpec(etc.resolve("b.yaml"), "b", "dev1");
    Path high = yamlSpec(run.resolve("c.yaml"), "c", "dev1", "dev2");

    CdiRegistry registry = load();

    assertThat(registry.device("vendor1.com/device=dev1")).isEmpty();
    assertThat(registry.device("vendor1.com/device=dev2")).isPresent();
    assertThat(registry.errors(high)).isEmpty();
  }

  @Test
  void conflictInTheHigherDirectoryHidesTheLowerDefinitionToo() throws Exception {
    yamlSpec(etc.resolve("x.yaml"), "x", "dev1");
    yamlSpec(run.resolve("a.yaml"), "a", "dev1");
    yamlSpec(run.resolve("b.yaml"), "b", "dev1");
    assertThat(load().device("vendor1.com/device=dev1")).isEmpty();
  }

  @Test
  void invalidFilesAreSkippedWithTheirErrorsAndOthersLoad() throws Exception {
    Path garbled = Files.writeString(run.resolve("garbled.json"), "{\"xyzzy\":1}");
    Path invalid = Files.writeString(run.resolve("invalid.json"), "{\"cdiVersion\":\"0.3.0\","
        + "\"kind\":\"vendor1.com/device\",\"devices\":[{\"name\":\"bad\",\"containerEdits\":"
        + "{\"env\":[\"NOEQUALS\"]}}]}");
    Path empty = Files.writeString(run.resolve("empty.yaml"), "");
    yamlSpec(run.resolve("good.yaml"), "good", "dev1");

    CdiRegistry registry = load();

    assertThat(registry.errors().keySet()).containsExactly(empty, garbled, invalid);
    assertThat(registry.errors(garbled)).singleElement().asString()
        .contains(garbled.toString()).contains("unknown field \"xyzzy\"");
    assertThat(registry.errors(invalid)).singleElement().asString()
        .contains(invalid.toString()).contains("device \"bad\"")
        .contains("devices[0].containerEdits.env[0]")
        .contains("invalid environment variable \"NOEQUALS\"");
    assertThat(registry.errors(empty)).singleElement().asString().contains("empty file");
    assertThat(registry.deviceNames()).containsExactly("vendor1.com/device=dev1");
  }

  @Test
  void onlyJsonAndYamlFilesDirectlyInTheDirectoryAreRead() throws Exception {
    yamlSpec(run.resolve("ignored.yml"), "yml", "yml");
    yamlSpec(run.resolve(".x.json.123.tmp"), "tmp", "tmp");
    Files.createDirectories(run.resolve("sub"));
    yamlSpec(run.resolve("sub/nested.yaml"), "nested", "nested");
    yamlSpec(run.resolve("read.yaml"), "read", "read");

    CdiRegistry registry = CdiRegistry.load(List.of(root.resolve("missing"), etc, run));

    assertThat(registry.deviceNames()).containsExactly("vendor1.com/device=read");
    assertThat(registry.errors()).isEmpty();
  }

  @Test
  void filesLoadAsRuntimesParseThemWhateverTheirExtension() throws Exception {
    Files.writeString(run.resolve("anchors.json"), """
        cdiVersion: "0.3.0"
        kind: "vendor1.com/device"
        devices:
          - name: "dev1"
            containerEdits: &edits
              env: ["ORIGIN=anchors"]
          - name: "dev2"
            containerEdits: *edits
        """);
    Files.writeString(run.resolve("sloppy.json"), """
        {"cdiVersion": "0.3.0",
        \t"kind": "vendor2.com/device",
        \t"devices": [{"name": "dev1", "containerEdits": {"env": ["ORIGIN=sloppy",]}},],
        }
        # written by hand
        """);

    CdiRegistry registry = load();

    assertThat(registry.errors()).isEmpty();
    assertThat(origin(registry, "vendor1.com/device=dev2")).isEqualTo("anchors");
    assertThat(origin(registry, "vendor2.com/device=dev1")).isEqualTo("sloppy");
  }

  @Test
  void entriesNamedLikeSpecsThatAreNoFilesAreErrorsOfTheirPath() throws Exception {
    Path directory = Files.createDirectory(run.resolve("mounted.json"));
    Path broken = Files.createSymbolicLink(run.resolve("broken.yaml"), run.resolve("gone.yaml"));
    Path toDirectory = Files.createSymbolicLink(run.resolve("dir-link.json"), etc);
    Path target = yamlSpec(root.resolve("elsewhere.txt"), "linked", "dev1");
    Path linked = Files.createSymbolicLink(run.resolve("linked.yaml"), target);

    CdiRegistry registry = load();

    assertThat(registry.errors().keySet()).containsExactly(broken, toDirectory, directory);
    assertThat(registry.errors(directory)).singleElement().asString()
        .contains("is a directory").contains("runtimes skip it");
    assertThat(registry.errors(broken)).singleElement().asString()
        .contains("target does not exist");
    assertThat(registry.errors(toDirectory)).singleElement().asString()
        .contains("points to a directory");
    assertThat(registry.device("vendor1.com/device=dev1").orElseThrow().specFile().path())
        .as("a link to a spec file loads").isEqualTo(linked);
  }

  @Test
  void aSpecDirectoryThatIsALinkIsNotFollowedAsRuntimesDoNot() throws Exception {
    yamlSpec(run.resolve("v.yaml"), "v", "dev1");
    Path link = Files.createSymbolicLink(root.resolve("cdi-link"), run);

    CdiRegistry registry = CdiRegistry.load(List.of(link));

    assertThat(registry.deviceNames()).isEmpty();
    assertThat(registry.errors(link)).singleElement().asString()
        .contains("symbolic link; runtimes do not follow it");
  }

  @Test
  void specWrittenByTheWriterReadsBackEqual() throws Exception {
    CdiSpec spec = CdiSpec.builder().kind(Kind.of("vendor.com", "device"))
        .annotation("vendor.com/owner", "test")
        .edits(e -> e.env("COMMON", "1"))
        .device("dev1", e -> e.deviceNode("/dev/null").env("DEV", "1"))
        .build();
    Path file = SpecDirectory.at(run).writeTransient(spec, "a_b");
    assertThat(file.getFileName()).hasToString("vendor.com-device_a_b.json");

    CdiRegistry registry = load();

    assertThat(registry.specFiles()).singleElement()
        .satisfies(f -> assertThat(f.spec()).isEqualTo(spec));
    assertThat(registry.device("vendor.com/device=dev1")).isPresent();
  }

  @Test
  void resolveMergesSpecEditsOnceThenDeviceEditsInRequestOrder() throws Exception {
    SpecDirectory specs = SpecDirectory.at(run);
    specs.write(CdiSpec.builder().kind("a.com/gpu").edits(e -> e.env("A_SPEC", "1"))
        .device("g0", e -> e.env("A_G0", "1")).device("g1", e -> e.env("A_G1", "1")).build());
    specs.write(CdiSpec.builder().kind("b.com/nic").edits(e -> e.env("B_SPEC", "1"))
        .device("n0", e -> e.env("B_N0", "1")).build());

    ResolvedDevices resolved = load().resolve(
        List.of("a.com/gpu=g1", "b.com/nic=n0", "a.com/gpu=g0", "a.com/gpu=g1"));

    assertThat(resolved.edits().env()).containsExactly(
        "A_SPEC=1", "A_G1=1", "B_SPEC=1", "B_N0=1", "A_G0=1", "A_G1=1");
    assertThat(resolved.devices()).extracting(d -> d.name().toString()).containsExactly(
        "a.com/gpu=g1", "b.com/nic=n0", "a.com/gpu=g0", "a.com/gpu=g1");
  }

  @Test
  void unresolvableNamesAreAllReportedAndNothingIsApplied() throws Exception {
    yamlSpec(run.resolve("v.yaml"), "v", "dev1");
    CdiRegistry registry = load();
    assertThatThrownBy(() -> registry.inject(
        List.of("vendor1.com/device=nope", "vendor1.com/device=dev1", "x.com/y=z"),
        OciContainer.empty()))
        .isInstanceOf(UnresolvableDevicesException.class)
        .hasMessage("unresolvable CDI devices vendor1.com/device=nope, x.com/y=z")
        .satisfies(e -> assertThat(((UnresolvableDevicesException) e).names()).hasSize(2));
  }

  @Test
  void defaultDirectoriesAreEtcBelowVarRun() {
    assertThat(CdiRegistry.DEFAULT_SPEC_DIRECTORIES)
        .containsExactly(Path.of("/etc/cdi"), Path.of("/var/run/cdi"));
  }
}
