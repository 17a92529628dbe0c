package io.github.dra4j.testing.cdi.injection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Linux host lookup and the path cleaning behind mount ordering. */
class HostLookupTest {
  @TempDir
  Path dir;

  @Test
  void readsCharDevices() throws Exception {
    assertThat(HostDeviceNodes.linux().lstat("/dev/null")).isEqualTo(new HostNode("c", 1, 3, 0666));
    assertThat(HostDeviceNodes.linux().lstat("/dev/zero")).isEqualTo(new HostNode("c", 1, 5, 0666));
  }

  @Test
  void filesDirectoriesAndLinksAreNotDevices() throws Exception {
    Path file = Files.writeString(dir.resolve("f"), "x");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
    assertThat(HostDeviceNodes.linux().lstat(file.toString())).isEqualTo(new HostNode("", 0, 0,
        0640));
    Path link = Files.createSymbolicLink(dir.resolve("l"), Path.of("/dev/null"));
    assertThat(HostDeviceNodes.linux().lstat(link.toString()).isDeviceNode()).isFalse();
    assertThat(HostDeviceNodes.linux().lstat(dir.toString()).isDeviceNode()).isFalse();
    assertThatThrownBy(() -> HostDeviceNodes.linux().lstat(dir.resolve("missing").toString()))
        .isInstanceOf(NoSuchFileException.class);
  }

  @Test
  void cleansPathsLikeGo() {
    assertThat(MountOrder.clean("/a//b/./c/..")).isEqualTo("/a/b");
    assertThat(MountOrder.clean("/../a/")).isEqualTo("/a");
    assertThat(MountOrder.clean("")).isEqualTo(".");
    assertThat(MountOrder.clean("a/../..")).isEqualTo("..");
    assertThat(MountOrder.clean("/")).isEqualTo("/");
    assertThat(MountOrder.depth("/dest/path/")).isEqualTo(2);
    assertThat(MountOrder.depth("/")).isEqualTo(1);
  }
}
