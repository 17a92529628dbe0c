package io.github.dra4j.cdi.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.function.Consumer;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * The builders refuse a bad value where the driver adds it, naming the value, instead of writing
 * it into a spec that a runtime applies (or refuses) when the container starts.
 */
class ContainerEditsChecksTest {

  private static void refused(Consumer<ContainerEdits.Builder> edit, String... messageParts) {
    refusedCall(() -> edit.accept(ContainerEdits.builder()), messageParts);
  }

  private static void refusedCall(ThrowingCallable call, String... messageParts) {
    assertThatThrownBy(call).isInstanceOf(IllegalArgumentException.class)
        .message().contains(messageParts);
  }

  @Test
  void envNameWithEqualsSignIsRefusedInsteadOfSettingAnotherVariable() {
    // "BAD=NAME" + "=1" would reach the container as BAD set to "NAME=1".
    refused(e -> e.env("BAD=NAME", "1"), "environment variable name \"BAD=NAME\"",
        "must not contain '='", "value \"1\"");
    refused(e -> e.env("A=B", "1"), "\"A=B\"");
  }

  @Test
  void nullOrEmptyNameAndNullValueAreRefused() {
    refused(e -> e.env(null, "1"), "name null", "is null");
    refused(e -> e.env("", "1"), "name \"\"", "is empty");
    refused(e -> e.env("GPU", null), "variable \"GPU\"", "value is null");
    refused(e -> e.env("GPU", "a\u0000b"), "\"GPU\"", "NUL");
    refused(e -> e.rawEnv("NOVALUE"), "environment entry \"NOVALUE\"", "NAME=VALUE");
    refused(e -> e.rawEnv("=x"), "\"=x\"");
    refused(e -> e.rawEnv(null), "entry null");
  }

  @Test
  void goodEnvironmentIsKeptAsWritten() {
    ContainerEdits edits = ContainerEdits.builder().env("EMPTY", "").env("URL", "a=b")
        .rawEnv("RAW=x=y").build();
    assertThat(edits.env()).containsExactly("EMPTY=", "URL=a=b", "RAW=x=y");
  }

  @Test
  void deviceNodesNeedAbsolutePathsAndValidFields() {
    refused(e -> e.deviceNode("dev/gpu0"), "device node path \"dev/gpu0\"", "absolute");
    refused(e -> e.deviceNode(""), "device node path \"\"", "empty");
    refused(e -> e.deviceNode("/dev/../etc/passwd"), "\"/dev/../etc/passwd\"", "normalized");
    refusedCall(() -> DeviceNode.builder("/dev/x").hostPath("x").build(),
        "hostPath \"x\"", "absolute", "/dev/x");
    refusedCall(() -> DeviceNode.builder("/dev/x").type("f").build(), "type \"f\"",
        "b, c, u, p");
    refusedCall(() -> DeviceNode.builder("/dev/x").permissions("rwx").build(),
        "permissions \"rwx\"", "r, w and m");
    refusedCall(() -> DeviceNode.builder("/dev/x").fileMode(0020666).build(),
        "fileMode \"020666\"", "permission bits");
    refused(e -> e.deviceNode(new DeviceNode("relative", "", "", 0, 0, null, "", null, null)),
        "\"relative\"");
  }

  @Test
  void hooksNeedAKnownNameAnAbsolutePathGoodEnvironmentAndAPositiveTimeout() {
    refusedCall(() -> Hook.builder("misCreateRuntime", "/bin/hook").build(),
        "hook name \"misCreateRuntime\"", "createRuntime");
    refusedCall(() -> Hook.builder(HookName.CREATE_RUNTIME, "hook").build(),
        "hook path \"hook\"", "absolute");
    refusedCall(() -> Hook.builder(HookName.CREATE_RUNTIME, "/h").env("A=B", "1"),
        "\"A=B\"", "'='");
    refusedCall(() -> Hook.builder(HookName.POSTSTOP, "/h").timeout(0).build(),
        "hook timeout \"0\"", "greater than 0");
    refused(e -> e.hook(new Hook("prestart", "", null, null, null)), "hook path \"\"");
    refused(e -> e.hook(new Hook("prestart", "/h", null, List.of("=v"), null)),
        "environment entry \"=v\"");
  }

  @Test
  void mountsNeedAbsolutePathsUnlessAPseudoSourceIsTyped() {
    refusedCall(() -> Mount.bind("/host", "container"), "mount containerPath \"container\"",
        "absolute");
    refusedCall(() -> Mount.bind("host", "/c"), "mount hostPath \"host\"", "absolute");
    refusedCall(() -> Mount.bind("", "/c"), "mount hostPath \"\"", "\"/c\"");
    refusedCall(() -> Mount.of("tmpfs", "/c/", "tmpfs", List.of()), "\"/c/\"");
    refusedCall(() -> Mount.of("tmpfs", "/c", "tmpfs", List.of("")), "mount option \"\"");
    refused(e -> e.mount(new Mount("/a", "b", List.of(), "")), "containerPath \"b\"");
    assertThat(Mount.of("tmpfs", "/scratch", "tmpfs", List.of("rw")).hostPath())
        .isEqualTo("tmpfs");
  }

  @Test
  void netDevicesNeedLinuxNamesUsedOnce() {
    refused(e -> e.netDevice("eno1", "a-name-that-is-16"), "container interface name",
        "\"a-name-that-is-16\"");
    refused(e -> e.netDevice("", "net0"), "host interface name \"\"");
    refused(e -> e.netDevice("eno1", "net0").netDevice("eno1", "net1"),
        "host interface name \"eno1\"", "added twice");
    refused(e -> e.netDevice("eno1", "net0").netDevice("eno2", "net0"),
        "container interface name \"net0\"", "added twice");
  }

  @Test
  void intelRdtAndGroupsAreChecked() {
    refusedCall(() -> IntelRdt.ofClosId("foo/bar"), "closID \"foo/bar\"");
    refused(e -> e.intelRdt(new IntelRdt("a\nb", "", "", null, false)), "closID \"a\\u000ab\"");
    refused(e -> e.additionalGid(-1), "additionalGids entry -1");
  }

  @Test
  void mergingBuiltOrReadEditsDoesNotCheckAgain() {
    // Edits read from a file may hold what a runtime accepts but this SDK would not write.
    ContainerEdits read = new ContainerEdits(List.of("A=1"),
        List.of(new DeviceNode("dev/x", "", "", 0, 0, null, "", null, null)), null, null, null,
        null, null);
    assertThat(ContainerEdits.builder().edits(read).build().deviceNodes()).hasSize(1);
  }
}
