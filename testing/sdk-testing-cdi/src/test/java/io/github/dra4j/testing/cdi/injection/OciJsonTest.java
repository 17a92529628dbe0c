package io.github.dra4j.testing.cdi.injection;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.dra4j.cdi.spec.ContainerEdits;
import io.github.dra4j.cdi.spec.DeviceNode;
import io.github.dra4j.cdi.spec.Hook;
import io.github.dra4j.cdi.spec.HookName;
import io.github.dra4j.cdi.spec.IntelRdt;
import io.github.dra4j.cdi.spec.Mount;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The OCI runtime-spec JSON of a container after injection, field by field. */
class OciJsonTest {

  @Test
  void aContainerAfterInjectionIsWrittenInTheRuntimeSpecShape() {
    OciContainer before = OciContainer.builder().env("ORIG=1").user(1000, 1000)
        .device(new OciDevice("/dev/null", "c", 1, 3, null, null, null))
        .mount(new OciMount("/proc", "proc", "proc", List.of("nosuid")))
        .build();
    ContainerEdits edits = ContainerEdits.builder()
        .env("GPU", "0")
        // Fully specified nodes: used as declared, nothing is looked up on this machine.
        .deviceNode(DeviceNode.builder("/dev/vendor-gpu0").type("c").numbers(195, 0)
            .fileMode(0666).build())
        .deviceNode(DeviceNode.builder("/dev/vendor-fifo").type("p").build())
        .netDevice("eno2", "net1")
        .netDevice("eno1", "net0")
        .mount(Mount.of("tmpfs", "/scratch", "tmpfs", List.of("nosuid", "size=1m")))
        .hook(Hook.builder(HookName.CREATE_RUNTIME, "/usr/bin/hook").args("hook", "--x")
            .timeout(5).build())
        .intelRdt(new IntelRdt("c1", "", "", List.of("L3:0=ff"), false))
        .additionalGid(44)
        .build();

    OciContainer after = ContainerEditor.forThisHost().apply(before, edits);

    assertThat(after.toOciJson()).isEqualTo("{"
        + "\"process\":{\"user\":{\"uid\":1000,\"gid\":1000,\"additionalGids\":[44]},"
        + "\"env\":[\"ORIG=1\",\"GPU=0\"]},"
        + "\"mounts\":["
        + "{\"destination\":\"/proc\",\"type\":\"proc\",\"source\":\"proc\",\"options\":[\"nosuid\"]},"
        + "{\"destination\":\"/scratch\",\"type\":\"tmpfs\",\"source\":\"tmpfs\","
        + "\"options\":[\"nosuid\",\"size=1m\"]}],"
        + "\"hooks\":{\"createRuntime\":[{\"path\":\"/usr/bin/hook\",\"args\":[\"hook\",\"--x\"],"
        + "\"timeout\":5}]},"
        + "\"linux\":{"
        + "\"resources\":{\"devices\":[{\"allow\":true,\"type\":\"c\",\"major\":195,\"minor\":0,"
        + "\"access\":\"rwm\"}]},"
        + "\"devices\":["
        + "{\"path\":\"/dev/null\",\"type\":\"c\",\"major\":1,\"minor\":3},"
        + "{\"path\":\"/dev/vendor-gpu0\",\"type\":\"c\",\"major\":195,\"minor\":0,"
        + "\"fileMode\":438,\"uid\":1000,\"gid\":1000},"
        + "{\"path\":\"/dev/vendor-fifo\",\"type\":\"p\",\"major\":0,\"minor\":0,"
        + "\"uid\":1000,\"gid\":1000}],"
        + "\"intelRdt\":{\"closID\":\"c1\",\"schemata\":[\"L3:0=ff\"]},"
        + "\"netDevices\":{\"eno1\":{\"name\":\"net0\"},\"eno2\":{\"name\":\"net1\"}}}}");
  }

  @Test
  void theJsonParsesAndAnswersRuntimeSpecPaths() {
    OciContainer container = OciContainer.builder().env("A=1")
        .hook(HookName.POSTSTOP, new OciHook("/bin/cleanup", List.of(), List.of("X=1"), null))
        .deviceRule(new OciDeviceRule(true, "b", 8, 0, "rw"))
        .build();

    JsonNode json = JsonMapper.builder().build().readTree(container.toOciJson());

    assertThat(json.at("/process/env/0").asString()).isEqualTo("A=1");
    assertThat(json.at("/process/user/uid").asLong()).isZero();
    assertThat(json.at("/hooks/poststop/0/path").asString()).isEqualTo("/bin/cleanup");
    assertThat(json.at("/hooks/poststop/0/env/0").asString()).isEqualTo("X=1");
    assertThat(json.at("/hooks/poststop/0").has("args")).as("empty args left out").isFalse();
    assertThat(json.at("/linux/resources/devices/0/access").asString()).isEqualTo("rw");
    assertThat(json.at("/linux").has("devices")).isFalse();
    assertThat(json.has("mounts")).isFalse();
  }

  @Test
  void anEmptyContainerHasOnlyItsUser() {
    assertThat(OciContainer.empty().toOciJson())
        .isEqualTo("{\"process\":{\"user\":{\"uid\":0,\"gid\":0}}}");
  }
}
