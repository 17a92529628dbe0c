package io.github.dra4j.core.version;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Build information read from a module's resource, and what is missing said to be unknown. */
class BuildInfoTest {

  @TempDir
  Path dir;

  private ClassLoader loaderWith(String artifact, String content) throws Exception {
    Path file = dir.resolve(BuildInfo.RESOURCE_DIRECTORY + artifact + ".properties");
    Files.createDirectories(file.getParent());
    Files.writeString(file, content);
    return new URLClassLoader(new URL[] {dir.toUri().toURL()}, null);
  }

  @Test
  void readsTheResourceAndDescribesItInOneLine() throws Exception {
    ClassLoader loader = loaderWith("tool", """
        name=dra4j
        version=1.2.3
        commit=0123456789abcdef0123456789abcdef01234567
        time=2025-01-02T03:04:05Z
        """);
    BuildInfo info = BuildInfo.of(loader, "tool", "fallback");
    assertThat(info).isEqualTo(new BuildInfo("dra4j", "1.2.3",
        "0123456789abcdef0123456789abcdef01234567", "2025-01-02T03:04:05Z"));
    assertThat(info.describe()).isEqualTo("dra4j 1.2.3 (commit"
        + " 0123456789abcdef0123456789abcdef01234567, built 2025-01-02T03:04:05Z)");
  }

  @Test
  void whatTheBuildDidNotKnowIsUnknown() throws Exception {
    ClassLoader loader = loaderWith("tool", "version=1.2.3\ncommit=\ntime=${build.time}\n");
    assertThat(BuildInfo.of(loader, "tool", "dra4j").describe())
        .isEqualTo("dra4j 1.2.3 (commit unknown, built unknown)");
    assertThat(BuildInfo.of(loader, "absent", "other").describe())
        .isEqualTo("other unknown (commit unknown, built unknown)");
  }
}
