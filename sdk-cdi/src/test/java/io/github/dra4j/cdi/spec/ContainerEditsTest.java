package io.github.dra4j.cdi.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ContainerEditsTest {

  @Test
  void emptinessFollowsTheLibrary() {
    assertThat(ContainerEdits.EMPTY.isEmpty()).isTrue();
    assertThat(ContainerEdits.builder().additionalGid(0).build().isEmpty()).isFalse();
    assertThat(ContainerEdits.builder().intelRdt(new IntelRdt(null, null, null, null, false))
        .build().isEmpty()).isFalse();
    assertThat(ContainerEdits.builder().netDevice("a", "b").build().isEmpty()).isFalse();
  }

  @Test
  void appendConcatenatesListsAndReplacesIntelRdt() {
    ContainerEdits first = ContainerEdits.builder().env("A", "1").deviceNode("/dev/a")
        .intelRdt(IntelRdt.ofClosId("one")).additionalGid(5).build();
    ContainerEdits second = ContainerEdits.builder().env("A", "2").deviceNode("/dev/a")
        .intelRdt(IntelRdt.ofClosId("two")).additionalGid(5).build();
    ContainerEdits merged = first.append(second);
    assertThat(merged.env()).containsExactly("A=1", "A=2");
    assertThat(merged.deviceNodes()).hasSize(2);
    assertThat(merged.additionalGids()).containsExactly(5L, 5L);
    assertThat(merged.intelRdt().closID()).isEqualTo("two");
    assertThat(first.append(ContainerEdits.EMPTY).intelRdt().closID()).isEqualTo("one");
  }

  @Test
  void refusesNullItemsAndOutOfRangeIds() {
    assertThatThrownBy(() -> new ContainerEdits(Arrays.asList("A=B", null), null, null, null,
        null, null, null)).hasMessageContaining("env must not contain null");
    assertThatThrownBy(() -> ContainerEdits.builder().additionalGid(-1).build())
        .hasMessageContaining("additionalGids entry -1 is out of range");
    assertThatThrownBy(() -> ContainerEdits.builder().additionalGid(1L << 32).build())
        .hasMessageContaining("out of range");
    assertThat(ContainerEdits.builder().additionalGid(0xFFFF_FFFFL).build().additionalGids())
        .containsExactly(4294967295L);
    assertThatThrownBy(() -> DeviceNode.builder("/dev/x").uid(-1).build())
        .hasMessageContaining("uid -1");
  }

  @Test
  void listsAreImmutableCopies() {
    List<String> options = new java.util.ArrayList<>(List.of("ro"));
    Mount mount = new Mount("/a", "/b", options, null);
    options.add("rw");
    assertThat(mount.options()).containsExactly("ro");
    assertThatThrownBy(() -> mount.options().add("x"))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void specListsQualifiedDeviceNamesInOrder() {
    CdiSpec spec = CdiSpec.builder().kind("k8s.gpu.example.com/gpu")
        .device("uid-gpu1", e -> e.env("A", "B")).device("uid-gpu0", e -> e.env("A", "B"))
        .build();
    assertThat(spec.qualifiedDeviceNames()).extracting(Object::toString).containsExactly(
        "k8s.gpu.example.com/gpu=uid-gpu1", "k8s.gpu.example.com/gpu=uid-gpu0");
    assertThat(spec.device("uid-gpu0")).isPresent();
    assertThat(spec.device("nope")).isEmpty();
    assertThat(spec.toBuilder().build()).isEqualTo(spec);
  }
}
