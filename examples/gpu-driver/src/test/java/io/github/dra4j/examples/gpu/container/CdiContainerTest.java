package io.github.dra4j.examples.gpu.container;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.dra4j.cdi.spec.HookName;
import io.github.dra4j.testing.cdi.injection.OciContainer;
import io.github.dra4j.testing.cdi.injection.OciMount;
import io.github.dra4j.testing.cdi.registry.UnresolvableDevicesException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The runner's preparation without a container (no root needed): specs that do not load or names
 * that do not resolve fail the run before a runtime starts, and the edits reach {@code
 * config.json}.
 */
class CdiContainerTest {
  private static final String KIND = "k8s.gpu.example.com/gpu";

  @Test
  void aSpecFileThatDoesNotLoadFailsTheRunNamingTheFile(@TempDir Path specDir) throws Exception {
    Path broken = Files.writeString(specDir.resolve("k8s.gpu.example.com-gpu_claim.json"),
        "{\"cdiVersion\":\"0.5.0\",\"kind\":\"" + KIND + "\",\"devices\":[{\"name\":\"gpu-0\"}]",
        StandardCharsets.UTF_8);

    assertThatThrownBy(() -> CdiContainer.edit(List.of(specDir), List.of(KIND + "=gpu-0")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("did not load")
        .hasMessageContaining(broken.toString());
  }

  @Test
  void aNameNoSpecDefinesFailsTheRunNamingIt(@TempDir Path specDir) throws Exception {
    writeSpec(specDir, "/dev/null");

    assertThatThrownBy(() -> CdiContainer.edit(List.of(specDir), List.of(KIND + "=gpu-7")))
        .isInstanceOf(UnresolvableDevicesException.class)
        .hasMessageContaining(KIND + "=gpu-7");
  }

  @Test
  void theClaimsEditsReachTheBundleConfigWithTheBaseMountsAndTheDenyAllRuleFirst(
      @TempDir Path specDir) throws Exception {
    writeSpec(specDir, "/dev/null");

    OciContainer edited = CdiContainer.edit(List.of(specDir), List.of(KIND + "=gpu-0"));
    JsonNode config = JsonMapper.builder().build().readTree(
        OciBundleConfig.write(edited, Path.of("/srv/rootfs"), List.of("/bin/probe", "-v")));

    assertThat(edited.envValue("GPU")).isEqualTo("0");
    assertThat(edited.mounts()).extracting(OciMount::destination).contains("/proc", "/dev",
        "/opt/lib/libx.so");
    assertThat(edited.hooks(HookName.CREATE_CONTAINER)).hasSize(1);
    assertThat(config.path("root").path("path").asString()).isEqualTo("/srv/rootfs");
    assertThat(config.path("process").path("args").toString()).isEqualTo("[\"/bin/probe\",\"-v\"]");
    assertThat(config.path("process").path("env").toString()).contains("GPU=0", "PATH=");
    assertThat(config.path("hooks").path("createContainer").get(0).path("path").asString())
        .isEqualTo("/opt/hook");
    JsonNode rules = config.path("linux").path("resources").path("devices");
    assertThat(rules.get(0).toString()).isEqualTo("{\"allow\":false,\"access\":\"rwm\"}");
    assertThat(rules.get(1).path("major").asLong()).isEqualTo(1);
    assertThat(rules.get(1).path("minor").asLong()).isEqualTo(3);
    assertThat(config.path("linux").path("devices").get(0).path("path").asString())
        .isEqualTo("/dev/gpu0");
  }

  private static void writeSpec(Path specDir, String hostNode) throws Exception {
    Files.writeString(specDir.resolve("k8s.gpu.example.com-gpu_claim.json"), """
        {"cdiVersion":"0.5.0","kind":"%s",
         "containerEdits":{"env":["GPU=0"],
           "mounts":[{"hostPath":"/opt/lib/libx.so","containerPath":"/opt/lib/libx.so",
                      "options":["ro","bind"]}],
           "hooks":[{"hookName":"createContainer","path":"/opt/hook","args":["hook","go"]}]},
         "devices":[{"name":"gpu-0","containerEdits":{"deviceNodes":[
           {"path":"/dev/gpu0","hostPath":"%s"}]}}]}
        """.formatted(KIND, hostNode), StandardCharsets.UTF_8);
  }
}
