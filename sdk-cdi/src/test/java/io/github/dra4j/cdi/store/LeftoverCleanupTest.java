package io.github.dra4j.cdi.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.dra4j.cdi.name.Kind;
import io.github.dra4j.cdi.spec.CdiSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LeftoverCleanupTest {
  private static final Kind KIND = Kind.of("vendor.com", "device");
  private static final Duration MINUTE = Duration.ofMinutes(1);

  @TempDir
  Path dir;

  private Path file(String name, Duration age) throws Exception {
    Path path = dir.resolve(name);
    Files.writeString(path, "{\"cdiVersion\":");
    Files.setLastModifiedTime(path, FileTime.from(Instant.now().minus(age)));
    return path;
  }

  @Test
  void removesOnlyOldTemporaryFilesOfTheWriter() throws Exception {
    SpecDirectory specs = SpecDirectory.at(dir);
    Path spec = specs.writeTransient(
        CdiSpec.builder().kind(KIND).device("d", e -> e.env("A", "B")).build(), "c1");
    Files.setLastModifiedTime(spec, FileTime.from(Instant.now().minus(Duration.ofHours(1))));
    // Named the way write() names its temporary files (Files.createTempFile adds the digits).
    Path crashed = Files.createTempFile(dir, ".vendor.com-device_c2.json.", ".tmp");
    Files.setLastModifiedTime(crashed, FileTime.from(Instant.now().minus(Duration.ofHours(1))));
    Path inProgress = file(".vendor.com-device_c3.json.8812.tmp", Duration.ZERO);
    Path notOurs = file(".editor-swap.tmp", Duration.ofHours(1));
    Path visible = file("vendor.com-device_c4.json.77.tmp", Duration.ofHours(1));
    Path directory = Files.createDirectory(dir.resolve(".vendor.com-device_c5.json.9.tmp"));
    Files.setLastModifiedTime(directory, FileTime.from(Instant.now().minus(Duration.ofHours(1))));

    assertThat(specs.removeLeftovers(MINUTE)).containsExactly(crashed);

    assertThat(crashed).doesNotExist();
    assertThat(spec).exists();
    assertThat(inProgress).as("younger than the minimum age").exists();
    assertThat(notOurs).as("no digits before .tmp").exists();
    assertThat(visible).as("not hidden").exists();
    assertThat(directory).isDirectory();
  }

  @Test
  void aZeroAgeRemovesEveryLeftoverAndAMissingDirectoryHasNone() throws Exception {
    Path first = file(".vendor.com-device_a.json.1.tmp", Duration.ZERO);
    Path second = file(".vendor.com-device.json.2.tmp", Duration.ZERO);

    assertThat(SpecDirectory.at(dir).removeLeftovers(Duration.ZERO.minusSeconds(1)))
        .containsExactly(second, first);
    assertThat(SpecDirectory.at(dir.resolve("absent")).removeLeftovers(Duration.ZERO)).isEmpty();
  }

  @Test
  void aWriteLeavesNoTemporaryFileBehind() throws Exception {
    SpecDirectory specs = SpecDirectory.at(dir.resolve("created"));
    for (int i = 0; i < 5; i++) {
      specs.writeTransient(CdiSpec.builder().kind(KIND).device("d" + i, e -> e.env("A", "B"))
          .build(), "c" + i);
    }

    assertThat(specs.removeLeftovers(Duration.ZERO.minusSeconds(1))).isEmpty();
    assertThat(specs.listTransient(KIND)).hasSize(5);
  }
}
