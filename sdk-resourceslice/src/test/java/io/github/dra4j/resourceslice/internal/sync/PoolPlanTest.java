package io.github.dra4j.resourceslice.internal.sync;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import io.github.dra4j.resourceslice.internal.compare.SemanticEquality;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Rules G16 and G17 on the pure plan, without an API server. */
class PoolPlanTest {

  private static final SemanticEquality EQUALITY = SemanticEquality.standard();

  private static Device device(String name) {
    return new DeviceBuilder().withName(name).build();
  }

  private static DesiredPool desired(long generation, String... devicePerSlice) {
    List<DesiredSlice> slices = new ArrayList<>();
    for (String name : devicePerSlice) {
      slices.add(new DesiredSlice(List.of(device(name)), List.of(), null));
    }
    return new DesiredPool("pool", null, false, generation, slices, List.of());
  }

  private static ResourceSlice current(String name, long generation, int count, String device) {
    return new ResourceSliceBuilder()
        .withNewMetadata().withName(name).withResourceVersion("1").endMetadata()
        .withNewSpec().withDriver("d").withNodeName("n")
        .withPool(PoolPlan.header("pool", generation, count))
        .withDevices(device(device)).endSpec().build();
  }

  @Test
  void emptyStartCreatesEverythingAtGenerationOne() {
    PoolPlan plan = PoolPlan.compute(desired(0, "a", "b"), List.of(), EQUALITY);
    assertThat(plan.missingCount()).isEqualTo(2);
    assertThat(plan.generation()).isEqualTo(1);
    assertThat(plan.bumped()).isTrue();
  }

  private static List<ResourceSlice> abcAtGenerationOne() {
    return List.of(current("00000-a", 1, 3, "a"), current("00001-b", 1, 3, "b"),
        current("00002-c", 1, 3, "c"));
  }

  @Test
  void oneChangeKeepsTheGeneration() {
    List<ResourceSlice> current = abcAtGenerationOne();
    PoolPlan plan = PoolPlan.compute(desired(0, "a", "B", "c"), current, EQUALITY);
    assertThat(plan.changed()).containsExactly(false, true, false);
    assertThat(plan.generation()).isEqualTo(1);
    assertThat(plan.bumped()).isFalse();
  }

  @Test
  void twoChangesBumpTheGeneration() {
    List<ResourceSlice> current = abcAtGenerationOne();
    PoolPlan plan = PoolPlan.compute(desired(0, "A", "B", "c"), current, EQUALITY);
    assertThat(plan.generation()).isEqualTo(2);
    assertThat(plan.bumped()).isTrue();
  }

  @Test
  void driverGenerationIsAFloor() {
    List<ResourceSlice> current = List.of(current("00000-a", 1, 1, "a"));
    PoolPlan plan = PoolPlan.compute(desired(7, "a"), current, EQUALITY);
    assertThat(plan.generation()).isEqualTo(7);
    assertThat(plan.bumped()).isTrue();
    assertThat(PoolPlan.compute(desired(1, "a"), current, EQUALITY).bumped()).isFalse();
  }

  @Test
  void olderGenerationsLegacyNamesOutOfRangeAndDuplicatesAreObsolete() {
    List<ResourceSlice> current = List.of(
        current("00000-a", 1, 2, "a"), // older generation
        current("00000-b", 2, 2, "a"), // index 0
        current("00000-c", 2, 2, "a"), // duplicate index 0
        current("00005-d", 2, 2, "a"), // out of range
        current("gpu-node-xyz", 2, 2, "a")); // legacy name
    PoolPlan plan = PoolPlan.compute(desired(0, "a", "b"), current, EQUALITY);
    assertThat(plan.obsolete()).extracting(s -> s.getMetadata().getName())
        .containsExactly("00000-a", "00000-c", "00005-d", "gpu-node-xyz");
    assertThat(plan.matched().get(0).getMetadata().getName()).isEqualTo("00000-b");
    assertThat(plan.matched().get(1)).isNull();
    assertThat(plan.generation()).isEqualTo(3);
  }

  @Test
  void recreatingOneMissingSliceOfAnUnchangedPoolKeepsTheGeneration() {
    List<ResourceSlice> current = new ArrayList<>(Arrays.asList(current("00000-a", 4, 3, "a"),
        current("00002-c", 4, 3, "c")));
    PoolPlan plan = PoolPlan.compute(desired(0, "a", "b", "c"), current, EQUALITY);
    assertThat(plan.missingCount()).isEqualTo(1);
    assertThat(plan.generation()).isEqualTo(4);
    assertThat(plan.bumped()).isFalse();
    // Two missing slices are a real change of the pool: the generation moves on.
    PoolPlan two = PoolPlan.compute(desired(0, "a", "b", "c"), List.of(current.get(0)), EQUALITY);
    assertThat(two.generation()).isEqualTo(5);
  }
}
