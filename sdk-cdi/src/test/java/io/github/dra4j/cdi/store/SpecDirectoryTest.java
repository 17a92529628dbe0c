package io.github.dra4j.cdi.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.dra4j.cdi.codec.SpecCodec;
import io.github.dra4j.cdi.name.InvalidNameException;
import io.github.dra4j.cdi.name.Kind;
import io.github.dra4j.cdi.spec.CdiSpec;
import io.github.dra4j.cdi.spec.CdiVersion;
import io.github.dra4j.cdi.spec.ContainerEdits;
import io.github.dra4j.cdi.spec.Device;
import io.github.dra4j.cdi.spec.DeviceNode;
import io.github.dra4j.cdi.validation.InvalidSpecException;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SpecDirectoryTest {
  private static final String CLAIM_UID = "4f1c9e2a-7b3d-4e5f-8a9b-0c1d2e3f4a5b";
  private static final Kind KIND = Kind.of("k8s.gpu.example.com", "gpu");

  @TempDir
  Path root;

  private static CdiSpec claimSpec(String uid) {
    return CdiSpec.builder().kind(KIND)
        .device(uid + "-gpu0", e -> e.env("GPU_DEVICE_0", "gpu-0").deviceNode("/dev/gpu0"))
        .device(uid + "-gpu1", e -> e.env("GPU_DEVICE_1", "gpu-1").deviceNode("/dev/gpu1"))
        .build();
  }

  private static List<String> listNames(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void writesTransientSpecAtomicallyWithMode0644() throws Exception {
    Path dir = root.resolve("var/run/cdi");
    SpecDirectory specs = SpecDirectory.at(dir);

    Path file = specs.writeTransient(claimSpec(CLAIM_UID), CLAIM_UID);

    assertThat(file).isEqualTo(dir.resolve("k8s.gpu.example.com-gpu_" + CLAIM_UID + ".json"));
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-r--r--");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)))
        .isEqualTo("rwxr-xr-x");
    assertThat(listNames(dir)).containsExactly(file.getFileName().toString());
    CdiSpec back = SpecCodec.standard().read(file);
    assertThat(back).isEqualTo(claimSpec(CLAIM_UID));
    // The claim UID starts with a digit, so device names need 0.5.0.
    assertThat(back.cdiVersion()).isEqualTo("0.5.0");
  }

  @Test
  void stampsTheMinimumVersionUnlessTheSpecNamesAHigherOne() throws Exception {
    CdiSpec unversioned = new CdiSpec(null, KIND.toString(), null,
        List.of(Device.builder("gpu0").edits(e -> e.deviceNode("/dev/gpu0")).build()), null);
    Path file = SpecDirectory.at(root).write(unversioned);
    assertThat(file.getFileName()).hasToString("k8s.gpu.example.com-gpu.json");
    assertThat(Files.readString(file)).startsWith("{\"cdiVersion\":\"0.3.0\",");

    CdiSpec explicit = CdiSpec.builder().cdiVersion(CdiVersion.V1_1_0).kind(KIND)
        .device("gpu0", e -> e.deviceNode("/dev/gpu0")).build();
    assertThat(Files.readString(SpecDirectory.at(root).write(explicit)))
        .startsWith("{\"cdiVersion\":\"1.1.0\",");
  }

  @Test
  void replaceOverwritesAndCreateNewRefusesAnExistingFile() throws Exception {
    SpecDirectory specs = SpecDirectory.at(root);
    CdiSpec first = CdiSpec.builder().kind(KIND).device("gpu0", e -> e.env("V", "1")).build();
    CdiSpec second = CdiSpec.builder().kind(KIND).device("gpu0", e -> e.env("V", "2")).build();
    SpecFileName name = SpecFileName.forSpec(KIND);

    specs.write(first, name, WriteMode.CREATE_NEW);
    assertThatThrownBy(() -> specs.write(second, name, WriteMode.CREATE_NEW))
        .isInstanceOf(FileAlreadyExistsException.class);
    assertThat(SpecCodec.standard().read(root.resolve(name.value()))).isEqualTo(first);

    specs.write(second, name, WriteMode.REPLACE);
    assertThat(SpecCodec.standard().read(root.resolve(name.value()))).isEqualTo(second);
    assertThat(listNames(root)).containsExactly(name.value());
  }

  @Test
  void invalidSpecWritesNothingAndNamesTheFile() {
    // The builder refuses a relative path; a spec from elsewhere (a file, the constructors) can
    // still carry one, and the writer refuses it.
    CdiSpec spec = CdiSpec.builder().kind(KIND).device(Device.of("gpu0",
        new ContainerEdits(null, List.of(new DeviceNode(
            "dev/gpu0", null, null, 0, 0, null, null, null, null)), null, null, null, null, null)))
        .build();
    assertThatThrownBy(() -> SpecDirectory.at(root).writeTransient(spec, "claim1"))
        .isInstanceOf(InvalidSpecException.class)
        .hasMessageContaining(root.resolve("k8s.gpu.example.com-gpu_claim1.json").toString())
        .hasMessageContaining("device \"gpu0\"")
        .hasMessageContaining("devices[0].containerEdits.deviceNodes[0].path \"dev/gpu0\"");
    assertThat(root.toFile().list()).isEmpty();
  }

  @Test
  void removeIsIdempotent() throws Exception {
    SpecDirectory specs = SpecDirectory.at(root);
    assertThat(specs.removeTransient(KIND, CLAIM_UID)).isFalse();
    specs.writeTransient(claimSpec(CLAIM_UID), CLAIM_UID);
    assertThat(specs.removeTransient(KIND, CLAIM_UID)).isTrue();
    assertThat(specs.removeTransient(KIND, CLAIM_UID)).isFalse();
    assertThat(root.toFile().list()).isEmpty();
    assertThat(SpecDirectory.at(root.resolve("missing")).remove(KIND)).isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {"../x", "a/b", "/etc/passwd", "x\u0000y", ".", "..", ".hidden", "",
      "a\\b", "a b", "ü", "-x", "a\nb", "..%2fx"})
  void idsThatCouldEscapeTheDirectoryAreRefusedBeforeAnyPathIsBuilt(String id) throws Exception {
    Path dir = root.resolve("cdi");
    SpecDirectory specs = SpecDirectory.at(dir);
    assertThatThrownBy(() -> specs.writeTransient(claimSpec("c"), id))
        .isInstanceOf(InvalidNameException.class)
        .hasMessageContaining("transient spec ID");
    assertThatThrownBy(() -> specs.removeTransient(KIND, id))
        .isInstanceOf(InvalidNameException.class);
    assertThat(Files.exists(dir)).as("nothing created").isFalse();
    assertThat(listNames(root)).isEmpty();
  }

  @Test
  void refusedIdMessagesShowTheOffendingCharacter() {
    assertThatThrownBy(() -> SpecFileName.checkId("x\u0000y"))
        .hasMessage("transient spec ID \"x\\u0000y\": character '\\u0000' is not allowed"
            + " (letters, digits, _ - . : only)");
  }

  @Test
  void fileNamesFollowTheLibraryConvention() {
    Kind kind = Kind.of("vendor.com", "device");
    assertThat(SpecFileName.forSpec(kind).value()).isEqualTo("vendor.com-device.json");
    assertThat(SpecFileName.forTransientSpec(kind, "a_b").value())
        .isEqualTo("vendor.com-device_a_b.json");
    // The library would turn a/b into a_b; two IDs must never share one file, so it is refused.
    assertThatThrownBy(() -> SpecFileName.forTransientSpec(kind, "a/b"))
        .isInstanceOf(InvalidNameException.class);
    assertThat(SpecFileName.forTransientSpec(kind, "0:1.2-3").value())
        .isEqualTo("vendor.com-device_0:1.2-3.json");
  }

  @Test
  void fileNameLengthBoundaryIs255Bytes() {
    String stem = "vendor.com-device_";
    String id = "i".repeat(255 - stem.length() - ".json".length());
    Kind kind = Kind.of("vendor.com", "device");
    assertThat(SpecFileName.forTransientSpec(kind, id).value()).hasSize(255);
    assertThatThrownBy(() -> SpecFileName.forTransientSpec(kind, id + "i"))
        .hasMessageContaining("256 bytes long, at most 255");
  }

  @Test
  void longestNameStillWritesThroughAShorterTempName() throws Exception {
    String id = "i".repeat(255 - "k8s.gpu.example.com-gpu_".length() - ".json".length());
    Path file = SpecDirectory.at(root).writeTransient(claimSpec("c"), id);
    assertThat(file.getFileName().toString()).hasSize(255);
    assertThat(listNames(root)).containsExactly(file.getFileName().toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"../x.json", "x.yml", "x", ".x.json", "a/b.json", "x.json.tmp"})
  void specFileNamesAreChecked(String name) {
    assertThatThrownBy(() -> new SpecFileName(name)).isInstanceOf(InvalidNameException.class)
        .hasMessageStartingWith("spec file name");
  }

  @Test
  void defaultDirectoryIsVarRunCdi() {
    assertThat(SpecDirectory.runtimeDefault().path()).isEqualTo(Path.of("/var/run/cdi"));
  }
}
