package io.github.dra4j.testing.cdi.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.dra4j.cdi.spec.HookName;
import io.github.dra4j.testing.cdi.injection.OciContainer;
import io.github.dra4j.testing.cdi.injection.OciDevice;
import io.github.dra4j.testing.cdi.injection.OciDeviceRule;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reference CDI library's worked example of a cached spec directory, from a real file through
 * real host lookups: the {@code /dev/vendor1-*} nodes do not exist on the test machine, so the
 * fully specified nodes are used as declared, without a file mode.
 */
class WorkedExampleTest {
  @TempDir
  Path dir;

  @Test
  void injectsEnvDevicesRulesAndHooksInTheLibrarysOrder() throws Exception {
    Files.writeString(dir.resolve("vendor1.yaml"), """
        cdiVersion: "0.3.0"
        kind: "vendor1.com/device"
        containerEdits:
          env: ["VENDOR1_SPEC_VAR1=VAL1"]
        devices:
          - name: "dev1"
            containerEdits:
              env: ["VENDOR1_DEV1=VAL1"]
              deviceNodes:
                - {path: "/dev/vendor1-dev1", type: "b", major: 10, minor: 1}
          - name: "dev2"
            containerEdits:
              env: ["VENDOR1_DEV2=VAL2"]
              deviceNodes:
                - {path: "/dev/vendor1-dev2", type: "b", major: 10, minor: 2}
              hooks:
                - {hookName: "prestart", path: "/usr/local/bin/prestart-vendor-hook",
                   args: ["--verbose"], env: ["HOOK_ENV1=PRESTART_VAL1"]}
                - {hookName: "createRuntime", path: "/usr/local/bin/cr-vendor-hook",
                   args: ["--debug"], env: ["HOOK_ENV1=CREATE_RUNTIME_VAL1"]}
          - name: "dev3"
            containerEdits:
              env: ["VENDOR1_DEV3=VAL3"]
              deviceNodes:
                - {path: "/dev/vendor1-dev3", type: "b", major: 10, minor: 3}
        """);
    OciContainer before = OciContainer.builder().env("ORIG_VAR1=VAL1", "ORIG_VAR2=VAL2")
        .device(new OciDevice("/dev/null", "c", 1, 3, null, null, null))
        .device(new OciDevice("/dev/zero", "c", 1, 5, null, null, null))
        .build();

    CdiRegistry registry = CdiRegistry.load(List.of(dir));
    assertThat(registry.errors()).isEmpty();
    OciContainer after = registry.inject(List.of(
        "vendor1.com/device=dev1", "vendor1.com/device=dev2", "vendor1.com/device=dev3"), before);

    assertThat(after.env()).containsExactly("ORIG_VAR1=VAL1", "ORIG_VAR2=VAL2",
        "VENDOR1_SPEC_VAR1=VAL1", "VENDOR1_DEV1=VAL1", "VENDOR1_DEV2=VAL2", "VENDOR1_DEV3=VAL3");
    assertThat(after.devices()).containsExactly(
        new OciDevice("/dev/null", "c", 1, 3, null, null, null),
        new OciDevice("/dev/zero", "c", 1, 5, null, null, null),
        new OciDevice("/dev/vendor1-dev1", "b", 10, 1, null, null, null),
        new OciDevice("/dev/vendor1-dev2", "b", 10, 2, null, null, null),
        new OciDevice("/dev/vendor1-dev3", "b", 10, 3, null, null, null));
    assertThat(after.deviceRules()).containsExactly(
        new OciDeviceRule(true, "b", 10, 1, "rwm"),
        new OciDeviceRule(true, "b", 10, 2, "rwm"),
        new OciDeviceRule(true, "b", 10, 3, "rwm"));
    assertThat(after.hooks().keySet())
        .containsExactly(HookName.PRESTART, HookName.CREATE_RUNTIME);
    assertThat(after.hooks(HookName.PRESTART)).singleElement().satisfies(h -> {
      assertThat(h.path()).isEqualTo("/usr/local/bin/prestart-vendor-hook");
      assertThat(h.args()).containsExactly("--verbose");
      assertThat(h.env()).containsExactly("HOOK_ENV1=PRESTART_VAL1");
    });
    assertThat(after.hooks(HookName.CREATE_RUNTIME)).singleElement()
        .satisfies(h -> assertThat(h.path()).isEqualTo("/usr/local/bin/cr-vendor-hook"));
    assertThat(after.mounts()).isEmpty();
  }
}
