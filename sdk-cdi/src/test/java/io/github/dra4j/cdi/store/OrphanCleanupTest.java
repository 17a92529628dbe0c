package io.github.dra4j.cdi.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.dra4j.cdi.name.Kind;
import io.github.dra4j.cdi.spec.CdiSpec;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OrphanCleanupTest {
  private static final Kind KIND = Kind.of("vendor.com", "device");

  @TempDir
  Path dir;

  private static CdiSpec spec(Kind kind, String device) {
    return CdiSpec.builder().kind(kind).device(device, e -> e.env("A", "B")).build();
  }

  @Test
  void removesOnlyThisKindsTransientSpecsOfClaimsNoLongerPrepared() throws Exception {
    SpecDirectory specs = SpecDirectory.at(dir);
    specs.writeTransient(spec(KIND, "a1-dev"), "a1");
    specs.writeTransient(spec(KIND, "a2-dev"), "a2");
    specs.writeTransient(spec(KIND, "a3-dev"), "a3");
    specs.write(spec(KIND, "static"));
    // Kind vendor.com/device_x: its files look like transients of vendor.com/device.
    Kind lookalike = Kind.of("vendor.com", "device_x");
    Path lookalikeSpec = specs.write(spec(lookalike, "d"));
    Path lookalikeTransient = specs.writeTransient(spec(lookalike, "d"), "a9");
    Path otherVendor = specs.writeTransient(spec(Kind.of("other.com", "gpu"), "d"), "a2");
    // Left by a Go driver that writes YAML.
    Path yaml = dir.resolve("vendor.com-device_y1.yaml");
    Files.writeString(yaml, """
        cdiVersion: "0.3.0"
        kind: "vendor.com/device"
        devices:
          - name: "y1-dev"
            containerEdits:
              env: ["A=B"]
        """);
    Path broken = dir.resolve("vendor.com-device_broken.json");
    Files.writeString(broken, "{\"cdiVersion\":");
    Path temp = dir.resolve(".vendor.com-device_a4.json.123.tmp");
    Files.writeString(temp, "{}");

    assertThat(specs.listTransient(KIND)).extracting(TransientSpecFile::id)
        .containsExactly("a1", "a2", "a3", "broken", "x", "x_a9", "y1");

    var removed = specs.removeOrphans(KIND, Set.of("a1", "a3"));

    assertThat(removed).extracting(TransientSpecFile::id).containsExactly("a2", "y1");
    assertThat(dir.resolve("vendor.com-device_a1.json")).exists();
    assertThat(dir.resolve("vendor.com-device_a2.json")).doesNotExist();
    assertThat(dir.resolve("vendor.com-device_a3.json")).exists();
    assertThat(dir.resolve("vendor.com-device.json")).exists();
    assertThat(yaml).doesNotExist();
    assertThat(lookalikeSpec).exists();
    assertThat(lookalikeTransient).exists();
    assertThat(otherVendor).exists();
    assertThat(broken).as("cannot tell its kind, so kept").exists();
    assertThat(temp).exists();
  }

  @Test
  void nothingPreparedRemovesEveryTransientOfTheKind() throws Exception {
    SpecDirectory specs = SpecDirectory.at(dir);
    for (int i = 0; i < 20; i++) {
      specs.writeTransient(spec(KIND, "c" + i + "-dev"), "c" + i);
    }
    assertThat(specs.removeOrphans(KIND, Set.of())).hasSize(20);
    assertThat(specs.listTransient(KIND)).isEmpty();
    assertThat(dir.toFile().list()).isEmpty();
  }

  @Test
  void aHugeFileOrALinkNamedLikeAnOrphanIsLeftAloneUnread() throws Exception {
    SpecDirectory specs = SpecDirectory.at(dir);
    specs.writeTransient(spec(KIND, "gone-dev"), "gone");
    Path huge = dir.resolve("vendor.com-device_huge.json");
    try (RandomAccessFile file = new RandomAccessFile(huge.toFile(), "rw")) {
      file.setLength(3L << 30); // sparse: no disk space, more than a Java array holds
    }
    Path link = Files.createSymbolicLink(dir.resolve("vendor.com-device_link.json"), huge);

    assertThat(specs.removeOrphans(KIND, Set.of())).extracting(TransientSpecFile::id)
        .containsExactly("gone");
    assertThat(huge).exists();
    assertThat(Files.isSymbolicLink(link)).isTrue();
  }

  @Test
  void missingDirectoryHasNoOrphans() throws Exception {
    SpecDirectory specs = SpecDirectory.at(dir.resolve("absent"));
    assertThat(specs.listTransient(KIND)).isEmpty();
    assertThat(specs.removeOrphans(KIND, Set.of())).isEmpty();
  }
}
