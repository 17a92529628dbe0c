package io.github.dra4j.lifecycle.internal.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.dra4j.kubeletplugin.KubeletPluginBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading the boot ID from a file and from Linux. */
class BootIdTest {

  @TempDir
  Path dir;

  @Test
  void readsTheIdWithoutSurroundingWhiteSpace() throws IOException {
    Path source = Files.writeString(dir.resolve("boot_id"),
        "6ece89dd-aedc-47b0-9445-1012847c2a21\n");

    assertThat(BootId.read(source)).isEqualTo("6ece89dd-aedc-47b0-9445-1012847c2a21");
  }

  @Test
  void aMissingFileIsNamed() {
    Path missing = dir.resolve("missing");

    assertThatThrownBy(() -> BootId.read(missing)).isInstanceOf(IOException.class)
        .hasMessage("boot ID " + missing + ": cannot read: " + missing
            + ": no such file or directory");
  }

  @Test
  void anEmptyFileIsNamed() throws IOException {
    Path empty = Files.writeString(dir.resolve("boot_id"), " \n");

    assertThatThrownBy(() -> BootId.read(empty)).isInstanceOf(IOException.class)
        .hasMessage("boot ID " + empty + ": the file is empty");
  }

  @Test
  void moreThanOneWordIsNotABootId() throws IOException {
    Path source = Files.writeString(dir.resolve("boot_id"), "a b\n");

    assertThatThrownBy(() -> BootId.read(source)).isInstanceOf(IOException.class)
        .hasMessage("boot ID " + source + ": not a boot ID: \"a b\"");
  }

  @Test
  void linuxPublishesAUuidThatStaysTheSameDuringABoot() throws IOException {
    assumeTrue(Files.exists(KubeletPluginBuilder.DEFAULT_BOOT_ID_SOURCE),
        KubeletPluginBuilder.DEFAULT_BOOT_ID_SOURCE + " exists only on"
            + " Linux");

    String id = BootId.read(KubeletPluginBuilder.DEFAULT_BOOT_ID_SOURCE);

    assertThat(id).matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    assertThat(BootId.read(KubeletPluginBuilder.DEFAULT_BOOT_ID_SOURCE)).isEqualTo(id);
  }
}
