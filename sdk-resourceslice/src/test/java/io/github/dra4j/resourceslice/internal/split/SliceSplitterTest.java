package io.github.dra4j.resourceslice.internal.split;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSetBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import io.github.dra4j.resourceapi.FeatureGates;
import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.ResourceApiRules;
import io.github.dra4j.resourceslice.Pool;
import io.github.dra4j.resourceslice.Slice;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SliceSplitterTest {

  static List<Device> plain(int count) {
    return IntStream.range(0, count).mapToObj(i -> new DeviceBuilder().withName("d" + i).build())
        .toList();
  }

  static List<Device> tainted(int count) {
    return IntStream.range(0, count).mapToObj(i -> new DeviceBuilder().withName("t" + i)
        .addNewTaint().withKey("k").withEffect("NoSchedule").endTaint().build()).toList();
  }

  private static List<Integer> sizes(List<Slice> slices) {
    return slices.stream().map(s -> s.devices().size()).toList();
  }

  @ParameterizedTest
  @CsvSource({"127, 127", "128, 128", "129, '128,1'"})
  void plainDevicesFill128(int count, String expected) {
    assertThat(sizes(SliceSplitter.split(plain(count), List.of(), null, false)))
        .containsExactlyElementsOf(parse(expected));
  }

  @ParameterizedTest
  @CsvSource({"63, 63", "64, 64", "65, '64,1'"})
  void taintedDevicesFill64(int count, String expected) {
    assertThat(sizes(SliceSplitter.split(tainted(count), List.of(), null, false)))
        .containsExactlyElementsOf(parse(expected));
  }

  @Test
  void oneRestrictedDeviceMakesThePoolUse64() {
    List<Device> devices = new ArrayList<>(plain(128));
    devices.add(new DeviceBuilder().withName("c").addNewConsumesCounter().withCounterSet("s")
        .endConsumesCounter().build());
    assertThat(sizes(SliceSplitter.split(devices, List.of(), null, false)))
        .containsExactly(64, 64, 1);
    assertThat(sizes(SliceSplitter.split(plain(65), List.of(), null, true))).containsExactly(64, 1);
  }

  @Test
  void aListAttributeMakesThePoolUse64AsTheServerCountsIt() {
    List<Device> devices = new ArrayList<>(plain(128));
    devices.set(5, new DeviceBuilder(devices.get(5)).addToAttributes("cores",
        new DeviceAttributeBuilder().withInts(0L, 1L).build()).build());
    List<Slice> slices = SliceSplitter.split(devices, List.of(), null, false);
    assertThat(sizes(slices)).containsExactly(64, 64);

    ResourceApiRules listsOn = ResourceApiRules.kubernetes136().withFeatureGates(
        FeatureGates.kubernetes136().with(FeatureGates.DRA_LIST_TYPE_ATTRIBUTES, true));
    assertThat(listsOn.validate(slice(devices))).extracting(FieldError::toString)
        .containsExactly("spec.devices: Too many: 128: must have at most 64 items");
    assertThat(listsOn.validate(slice(slices.get(0).devices()))).isEmpty();
  }

  private static ResourceSlice slice(List<Device> devices) {
    return new ResourceSliceBuilder().withNewMetadata().withName("s").endMetadata().withNewSpec()
        .withDriver("gpu.example.com").withNodeName("node-1").withNewPool().withName("pool")
        .withResourceSliceCount(2L).endPool().withDevices(devices).endSpec().build();
  }

  @Test
  void counterSetsGetTheirOwnSlicesOfEight() {
    List<CounterSet> sets = IntStream.range(0, 9)
        .mapToObj(i -> new CounterSetBuilder().withName("s" + i).build()).toList();
    List<Slice> slices = SliceSplitter.split(plain(2), sets, true, false);
    assertThat(slices).hasSize(3);
    assertThat(slices.get(0).devices()).hasSize(2);
    assertThat(slices.get(0).sharedCounters()).isEmpty();
    assertThat(slices.get(1).sharedCounters()).hasSize(8);
    assertThat(slices.get(1).devices()).isEmpty();
    assertThat(slices.get(2).sharedCounters()).extracting(CounterSet::getName)
        .containsExactly("s8");
    assertThat(slices).allMatch(s -> Boolean.TRUE.equals(s.perDeviceNodeSelection()));
  }

  @Test
  void emptyPoolPublishesOneEmptySlice() {
    assertThat(SliceSplitter.split(List.of(), List.of(), null, false))
        .containsExactly(new Slice(List.of(), List.of(), null));
  }

  @Test
  void splittingIsDeterministicAndKeepsOrder() {
    List<Slice> first = SliceSplitter.split(plain(300), List.of(), null, false);
    List<Slice> second = SliceSplitter.split(plain(300), List.of(), null, false);
    assertThat(first).isEqualTo(second);
    assertThat(first.get(2).devices().get(0).getName()).isEqualTo("d256");
  }

  @Test
  void poolBuilderUsesTheSplitterAndRefusesMixing() {
    Pool pool = Pool.builder().allNodes(true).devices(plain(129)).build();
    assertThat(sizes(pool.slices())).containsExactly(128, 1);
    assertThat(pool.deviceCount()).isEqualTo(129);
    assertThatThrownBy(() -> Pool.builder().addSlice(Slice.of(plain(1))).devices(plain(1)).build())
        .isInstanceOf(IllegalStateException.class);
  }

  private static List<Integer> parse(String csv) {
    return java.util.Arrays.stream(csv.split(",")).map(String::trim).map(Integer::valueOf).toList();
  }
}
