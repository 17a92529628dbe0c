package io.github.dra4j.cdi.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.dra4j.cdi.codec.SpecCodec;
import io.github.dra4j.cdi.name.Kind;
import io.github.dra4j.cdi.spec.CdiSpec;
import io.github.dra4j.cdi.spec.CdiVersion;
import io.github.dra4j.cdi.spec.IntelRdt;
import io.github.dra4j.cdi.validation.InvalidSpecException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Writing only when the content changed, and writing for runtimes that know older versions. */
class WriteOptionsTest {
  private static final Kind KIND = Kind.of("k8s.gpu.example.com", "gpu");
  private static final FileTime LONG_AGO = FileTime.from(Instant.parse("2020-01-01T00:00:00Z"));

  @TempDir
  Path dir;

  private static CdiSpec gpu(String value) {
    return CdiSpec.builder().kind(KIND).device("claim-gpu0", e -> e.env("GPU", value)).build();
  }

  @Test
  void preparingTheSameClaimAgainWritesNothing() throws Exception {
    SpecDirectory specs = SpecDirectory.at(dir);
    WrittenSpec first = specs.writeTransient(gpu("0"), "claim", WriteMode.REPLACE_IF_CHANGED);
    assertThat(first.written()).isTrue();
    assertThat(first.spec().cdiVersion()).isEqualTo("0.3.0");
    Files.setLastModifiedTime(first.path(), LONG_AGO);
    Files.setLastModifiedTime(dir, LONG_AGO);
    Object inode = Files.getAttribute(first.path(), "unix:ino", LinkOption.NOFOLLOW_LINKS);

    WrittenSpec again = specs.writeTransient(gpu("0"), "claim", WriteMode.REPLACE_IF_CHANGED);

    assertThat(again.written()).isFalse();
    assertThat(again.path()).isEqualTo(first.path());
    assertThat(Files.getAttribute(first.path(), "unix:ino", LinkOption.NOFOLLOW_LINKS))
        .isEqualTo(inode);
    assertThat(Files.getLastModifiedTime(first.path())).isEqualTo(LONG_AGO);
    assertThat(Files.getLastModifiedTime(dir)).as("no temporary file").isEqualTo(LONG_AGO);

    WrittenSpec changed = specs.writeTransient(gpu("1"), "claim", WriteMode.REPLACE_IF_CHANGED);
    assertThat(changed.written()).isTrue();
    assertThat(SpecCodec.standard().read(changed.path()).devices().get(0).containerEdits().env())
        .containsExactly("GPU=1");
  }

  @Test
  void plainReplaceRewritesEvenTheSameContent() throws Exception {
    SpecDirectory specs = SpecDirectory.at(dir);
    Path file = specs.writeTransient(gpu("0"), "claim");
    Object inode = Files.getAttribute(file, "unix:ino", LinkOption.NOFOLLOW_LINKS);

    WrittenSpec again = specs.writeTransient(gpu("0"), "claim", WriteMode.REPLACE);

    assertThat(again.written()).isTrue();
    assertThat(Files.getAttribute(file, "unix:ino", LinkOption.NOFOLLOW_LINKS)).isNotEqualTo(inode);
  }

  @Test
  void aTooLowExplicitVersionIsRefusedWithTheFieldThatNeedsMore() {
    CdiSpec spec = CdiSpec.builder().cdiVersion(CdiVersion.V0_6_0).kind(KIND)
        .device("gpu0", e -> e.env("A", "B").additionalGid(44)).build();
    assertThatThrownBy(() -> SpecDirectory.at(dir).write(spec))
        .isInstanceOf(InvalidSpecException.class)
        .hasMessageContaining("cdiVersion \"0.6.0\": the spec version must be at least v0.7.0"
            + " (needed by devices[gpu0].containerEdits.additionalGids)");
    assertThat(dir.toFile().list()).isEmpty();
  }

  @Test
  void aMaximumVersionNamesEveryFieldOlderRuntimesRefuse() {
    CdiSpec spec = CdiSpec.builder().kind(KIND)
        .edits(e -> e.netDevice("eno1", "net0"))
        .device("gpu0", e -> e.env("A", "B")
            .intelRdt(new IntelRdt("c1", "", "", List.of("L3:0=ff"), false)))
        .build();
    SpecDirectory forOlderRuntimes = SpecDirectory.at(dir).withMaximumVersion(CdiVersion.V1_0_0);

    assertThatThrownBy(() -> forOlderRuntimes.write(spec))
        .isInstanceOf(InvalidSpecException.class)
        .satisfies(e -> assertThat(((InvalidSpecException) e).problems())
            .extracting(p -> p.field() + ": " + p.reason())
            .containsExactly(
                "containerEdits.netDevices: needs spec version 1.1.0, newer than the maximum"
                    + " version 1.0.0 (runtimes that know spec versions only up to 1.0.0 refuse"
                    + " the file)",
                "devices[gpu0].containerEdits.intelRdt.schemata: needs spec version 1.1.0,"
                    + " newer than the maximum version 1.0.0 (runtimes that know spec versions"
                    + " only up to 1.0.0 refuse the file)"));
    assertThat(dir.toFile().list()).isEmpty();
  }

  @Test
  void aMaximumVersionRefusesANewerExplicitVersionButKeepsAnAllowedOne() throws Exception {
    SpecDirectory forOlderRuntimes = SpecDirectory.at(dir).withMaximumVersion(CdiVersion.V0_8_0);
    assertThat(forOlderRuntimes.maximumVersion()).isEqualTo(CdiVersion.V0_8_0);
    assertThat(SpecDirectory.at(dir).maximumVersion()).isEqualTo(CdiVersion.LATEST);
    CdiSpec newer = gpu("0").withCdiVersion("1.0.0");
    assertThatThrownBy(() -> forOlderRuntimes.write(newer))
        .isInstanceOf(InvalidSpecException.class)
        .hasMessageContaining("cdiVersion \"1.0.0\": is newer than the maximum version 0.8.0");

    CdiSpec allowed = CdiSpec.builder().cdiVersion(CdiVersion.V0_8_0).kind(KIND)
        .device("gpu0", e -> e.env("A", "B").additionalGid(44)).build();
    WrittenSpec written = forOlderRuntimes.writeTransient(allowed, "c1", WriteMode.REPLACE);
    assertThat(SpecCodec.standard().read(written.path()).cdiVersion()).isEqualTo("0.8.0");
    assertThat(forOlderRuntimes.write(gpu("0"))).satisfies(
        file -> assertThat(SpecCodec.standard().read(file).cdiVersion()).isEqualTo("0.3.0"));
  }
}
