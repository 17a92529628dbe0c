package io.github.dra4j.resourceslice.internal.compare;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSetBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacityBuilder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SemanticEqualityTest {

  private static Device capacity(String value) {
    return new DeviceBuilder().withName("d")
        .addToCapacity("memory", new DeviceCapacityBuilder().withValue(new Quantity(value)).build())
        .build();
  }

  private static Device taint(String time) {
    return new DeviceBuilder().withName("d").addNewTaint().withKey("k").withValue("v")
        .withEffect("NoSchedule").withTimeAdded(time).endTaint().build();
  }

  @Test
  void quantitiesCompareByValue() {
    assertThat(
        SemanticEquality.devicesDeepEqual(List.of(capacity("1")), List.of(capacity("1000m"))))
        .isTrue();
    assertThat(SemanticEquality.devicesDeepEqual(List.of(capacity("1Gi")),
        List.of(capacity("1073741824")))).isTrue();
    assertThat(SemanticEquality.devicesDeepEqual(List.of(capacity("1")), List.of(capacity("2"))))
        .isFalse();
  }

  @Test
  void quantitiesCompareWithTheKubernetesParser() {
    // Kubernetes rounds up below a nano and caps binary values at 2^63-1; the API server stores
    // what it parsed, so these pairs are one value and must not cause a slice update.
    assertThat(SemanticEquality.devicesDeepEqual(List.of(capacity("1e-10")),
        List.of(capacity("1n")))).isTrue();
    assertThat(SemanticEquality.devicesDeepEqual(List.of(capacity("10Ei")),
        List.of(capacity("9223372036854775807")))).isTrue();
    assertThat(SemanticEquality.devicesDeepEqual(List.of(capacity("1.5e3")),
        List.of(capacity("1500")))).isTrue();
    assertThat(SemanticEquality.devicesDeepEqual(List.of(capacity("1n")),
        List.of(capacity("2n")))).isFalse();
  }

  @Test
  void nullAndEmptyAreEqual() {
    Device empty = new DeviceBuilder().withName("d").withAttributes(new java.util.HashMap<>())
        .withTaints(new ArrayList<>()).build();
    Device bare = new Device();
    bare.setName("d");
    bare.setAttributes(null);
    bare.setTaints(null);
    assertThat(SemanticEquality.devicesDeepEqual(List.of(empty), List.of(bare))).isTrue();
    assertThat(SemanticEquality.devicesDeepEqual(null, List.of())).isTrue();
    assertThat(SemanticEquality.standard().equal(
        List.of(new CounterSetBuilder().withName("s").build()), null)).isFalse();
  }

  @Test
  void taintTimeCountsOnlyWhenBothAreSetAndWithinOneSecond() {
    List<Device> unset = List.of(taint(null));
    List<Device> at10 = List.of(taint("2026-01-01T10:00:00Z"));
    assertThat(SemanticEquality.devicesDeepEqual(unset, at10)).isTrue();
    assertThat(SemanticEquality.devicesDeepEqual(at10, List.of(taint("2026-01-01T10:00:01Z"))))
        .isTrue();
    assertThat(SemanticEquality.devicesDeepEqual(at10, List.of(taint("2026-01-01T10:00:02Z"))))
        .isFalse();
    assertThat(SemanticEquality.standard().devices(unset, at10, false)).isFalse();
    assertThat(SemanticEquality.standard().devices(at10,
        List.of(taint("2026-01-01T10:00:00.000Z")), false)).isTrue();
  }

  @Test
  void taintIdentityAndOrderMatter() {
    Device other = new DeviceBuilder().withName("d").addNewTaint().withKey("k").withValue("w")
        .withEffect("NoSchedule").endTaint().build();
    assertThat(SemanticEquality.devicesDeepEqual(List.of(taint(null)), List.of(other))).isFalse();
    Device a = new DeviceBuilder().withName("a").build();
    Device b = new DeviceBuilder().withName("b").build();
    assertThat(SemanticEquality.devicesDeepEqual(List.of(a, b), List.of(b, a))).isFalse();
  }
}
