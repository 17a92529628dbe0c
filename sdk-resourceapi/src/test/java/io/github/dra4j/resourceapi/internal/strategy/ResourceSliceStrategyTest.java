package io.github.dra4j.resourceapi.internal.strategy;

import static io.github.dra4j.resourceapi.TestJson.read;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.github.dra4j.resourceapi.FeatureGates;
import io.github.dra4j.resourceapi.TestJson;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

class ResourceSliceStrategyTest {

  private static final FeatureGates DEFAULTS = FeatureGates.kubernetes136();

  /** A slice with one device carrying {@code deviceJson} and spec fields {@code specJson}. */
  static ResourceSlice slice(String specJson, String deviceJson) {
    return read("{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceSlice\","
        + "\"metadata\":{\"name\":\"s\",\"generation\":7},"
        + "\"spec\":{\"driver\":\"d.example.com\",\"pool\":{\"name\":\"p\","
        + "\"resourceSliceCount\":1}" + specJson + ",\"devices\":[{\"name\":\"a\""
        + deviceJson + "}]}}", ResourceSlice.class);
  }

  private static Device device(ResourceSlice slice) {
    return slice.getSpec().getDevices().get(0);
  }

  @Test
  void createSetsGenerationOne() {
    ResourceSlice slice = slice(",\"nodeName\":\"n\"", "");
    ResourceSliceStrategy.prepareForCreate(slice, DEFAULTS);
    assertThat(slice.getMetadata().getGeneration()).isEqualTo(1L);
  }

  @Test
  void updateWithSameSpecKeepsGeneration() {
    ResourceSlice old = slice(",\"nodeName\":\"n\"", ",\"capacity\":{\"mem\":{\"value\":\"1\"}}");
    old.getMetadata().setGeneration(3L);
    ResourceSlice slice = slice(",\"nodeName\":\"n\"",
        ",\"capacity\":{\"mem\":{\"value\":\"1000m\"}}");
    ResourceSliceStrategy.prepareForUpdate(slice, old, DEFAULTS);
    assertThat(slice.getMetadata().getGeneration()).isEqualTo(3L);
  }

  @Test
  void updateWithChangedSpecIncrementsGeneration() {
    ResourceSlice old = slice(",\"nodeName\":\"n\"", "");
    old.getMetadata().setGeneration(3L);
    ResourceSlice slice = slice(",\"nodeName\":\"n\"", ",\"attributes\":{\"x\":{\"int\":1}}");
    ResourceSliceStrategy.prepareForUpdate(slice, old, DEFAULTS);
    assertThat(slice.getMetadata().getGeneration()).isEqualTo(4L);
  }

  @Test
  void metadataOnlyUpdateKeepsGeneration() {
    ResourceSlice old = slice(",\"nodeName\":\"n\"", "");
    old.getMetadata().setGeneration(3L);
    ResourceSlice slice = slice(",\"nodeName\":\"n\"", "");
    slice.getMetadata().setLabels(java.util.Map.of("a", "b"));
    ResourceSliceStrategy.prepareForUpdate(slice, old, DEFAULTS);
    assertThat(slice.getMetadata().getGeneration()).isEqualTo(3L);
  }

  @Test
  void droppedFieldStillBumpsGenerationAsIn136() {
    FeatureGates gates = DEFAULTS.with(FeatureGates.DRA_DEVICE_TAINTS, false);
    ResourceSlice old = slice(",\"nodeName\":\"n\"", "");
    old.getMetadata().setGeneration(3L);
    ResourceSlice slice = slice(",\"nodeName\":\"n\"",
        ",\"taints\":[{\"key\":\"k\",\"effect\":\"NoSchedule\"}]");
    ResourceSliceStrategy.prepareForUpdate(slice, old, gates);
    assertThat(slice.getMetadata().getGeneration()).isEqualTo(4L);
    assertThat(device(slice).getTaints()).isEmpty();
  }

  /** gate, spec JSON, device JSON using the gated fields, check that they are present. */
  static Stream<Arguments> gatedFields() {
    return Stream.of(
        Arguments.of(FeatureGates.DRA_DEVICE_TAINTS, ",\"nodeName\":\"n\"",
            ",\"taints\":[{\"key\":\"k\",\"effect\":\"NoSchedule\"}]",
            (Function<ResourceSlice, Boolean>) s -> !device(s).getTaints().isEmpty()),
        Arguments.of(FeatureGates.DRA_PARTITIONABLE_DEVICES, ",\"perDeviceNodeSelection\":true",
            ",\"nodeName\":\"n\",\"consumesCounters\":[{\"counterSet\":\"cs\","
                + "\"counters\":{\"c\":{\"value\":\"1\"}}}]",
            (Function<ResourceSlice, Boolean>) s -> s.getSpec().getPerDeviceNodeSelection() != null
                && device(s).getNodeName() != null
                && !device(s).getConsumesCounters().isEmpty()),
        Arguments.of(FeatureGates.DRA_DEVICE_BINDING_CONDITIONS, ",\"nodeName\":\"n\"",
            ",\"bindsToNode\":true,\"bindingConditions\":[\"a\"],"
                + "\"bindingFailureConditions\":[\"b\"]",
            (Function<ResourceSlice, Boolean>) s -> device(s).getBindsToNode() != null
                && !device(s).getBindingConditions().isEmpty()
                && !device(s).getBindingFailureConditions().isEmpty()),
        Arguments.of(FeatureGates.DRA_RESOURCE_CLAIM_DEVICE_STATUS, ",\"nodeName\":\"n\"",
            ",\"bindsToNode\":true,\"bindingConditions\":[\"a\"]",
            (Function<ResourceSlice, Boolean>) s -> device(s).getBindsToNode() != null
                && !device(s).getBindingConditions().isEmpty()),
        Arguments.of(FeatureGates.DRA_CONSUMABLE_CAPACITY, ",\"nodeName\":\"n\"",
            ",\"allowMultipleAllocations\":true,\"capacity\":{\"mem\":{\"value\":\"4\","
                + "\"requestPolicy\":{\"default\":\"1\"}}}",
            (Function<ResourceSlice, Boolean>) s -> device(s).getAllowMultipleAllocations() != null
                && device(s).getCapacity().get("mem").getRequestPolicy() != null),
        Arguments.of(FeatureGates.DRA_LIST_TYPE_ATTRIBUTES, ",\"nodeName\":\"n\"",
            ",\"attributes\":{\"x\":{\"ints\":[1,2]},\"y\":{\"strings\":[\"a\"]}}",
            (Function<ResourceSlice, Boolean>) s -> !device(s).getAttributes().get("x").getInts()
                .isEmpty() && !device(s).getAttributes().get("y").getStrings().isEmpty()),
        Arguments.of(FeatureGates.DRA_NODE_ALLOCATABLE_RESOURCES, ",\"nodeName\":\"n\"",
            ",\"nodeAllocatableResourceMappings\":{\"cpu\":{\"capacityKey\":\"c\"}}",
            (Function<ResourceSlice, Boolean>) s -> device(s).getAdditionalProperties()
                .containsKey(ResourceSliceStrategy.NODE_ALLOCATABLE_RESOURCE_MAPPINGS)));
  }

  @ParameterizedTest(name = "{0} off: dropped on create")
  @MethodSource("gatedFields")
  void gateOffDropsOnCreate(String gate, String spec, String device,
      Function<ResourceSlice, Boolean> present) {
    ResourceSlice slice = slice(spec, device);
    ResourceSliceStrategy.prepareForCreate(slice, gates(gate, false));
    assertThat(present.apply(slice)).isFalse();
  }

  @ParameterizedTest(name = "{0} on: kept on create")
  @MethodSource("gatedFields")
  void gateOnKeepsOnCreate(String gate, String spec, String device,
      Function<ResourceSlice, Boolean> present) {
    ResourceSlice slice = slice(spec, device);
    ResourceSliceStrategy.prepareForCreate(slice, gates(gate, true));
    assertThat(present.apply(slice)).isTrue();
  }

  @ParameterizedTest(name = "{0} off: dropped on update when the stored slice does not use it")
  @MethodSource("gatedFields")
  void gateOffDropsOnUpdateOfUnusedField(String gate, String spec, String device,
      Function<ResourceSlice, Boolean> present) {
    ResourceSlice old = slice(",\"nodeName\":\"n\"", "");
    ResourceSlice slice = slice(spec, device);
    ResourceSliceStrategy.prepareForUpdate(slice, old, gates(gate, false));
    assertThat(present.apply(slice)).isFalse();
  }

  @ParameterizedTest(name = "{0} off: kept on update when the stored slice uses it")
  @MethodSource("gatedFields")
  void gateOffKeepsFieldInUse(String gate, String spec, String device,
      Function<ResourceSlice, Boolean> present) {
    ResourceSlice old = slice(spec, device);
    ResourceSlice slice = TestJson.copy(old);
    ResourceSliceStrategy.prepareForUpdate(slice, old, gates(gate, false));
    assertThat(present.apply(slice)).isTrue();
  }

  private static FeatureGates gates(String gate, boolean on) {
    FeatureGates gates = DEFAULTS.with(gate, on);
    if (on && gate.equals(FeatureGates.DRA_RESOURCE_CLAIM_DEVICE_STATUS)) {
      return gates.with(FeatureGates.DRA_DEVICE_BINDING_CONDITIONS, true);
    }
    return gates;
  }

  @Test
  void partitionableDropClearsAllItsFields() {
    ResourceSlice slice = read("""
        {"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":"s"},
         "spec":{"driver":"d.example.com","pool":{"name":"p","resourceSliceCount":1},
          "perDeviceNodeSelection":true,
          "sharedCounters":[{"name":"cs","counters":{"c":{"value":"1"}}}],
          "devices":[{"name":"a","allNodes":true},
                     {"name":"b","nodeSelector":{"nodeSelectorTerms":[{}]}}]}}
        """, ResourceSlice.class);
    ResourceSliceStrategy.prepareForCreate(slice,
        DEFAULTS.with(FeatureGates.DRA_PARTITIONABLE_DEVICES, false));
    assertThat(slice.getSpec().getSharedCounters()).isEmpty();
    assertThat(slice.getSpec().getPerDeviceNodeSelection()).isNull();
    assertThat(slice.getSpec().getDevices().get(0).getAllNodes()).isNull();
    assertThat(slice.getSpec().getDevices().get(1).getNodeSelector()).isNull();
  }

  @Test
  void listAttributesKeepScalarValues() {
    ResourceSlice slice = slice(",\"nodeName\":\"n\"",
        ",\"attributes\":{\"x\":{\"int\":1},\"y\":{\"ints\":[1]}}");
    ResourceSliceStrategy.prepareForCreate(slice, DEFAULTS);
    assertThat(device(slice).getAttributes().get("x").getInt()).isEqualTo(1L);
    assertThat(device(slice).getAttributes().get("y").getInts()).isEmpty();
  }

  @Test
  void defaultGatesDropOnlyTheAlphaFields() {
    ResourceSlice slice = slice(",\"nodeName\":\"n\"",
        ",\"taints\":[{\"key\":\"k\",\"effect\":\"NoSchedule\"}],\"bindsToNode\":true,"
            + "\"allowMultipleAllocations\":true,\"attributes\":{\"y\":{\"bools\":[true]}}");
    ResourceSliceStrategy.prepareForCreate(slice, DEFAULTS);
    assertThat(device(slice).getTaints()).hasSize(1);
    assertThat(device(slice).getBindsToNode()).isTrue();
    assertThat(device(slice).getAllowMultipleAllocations()).isTrue();
    assertThat(device(slice).getAttributes().get("y").getBools()).isEmpty();
  }

  @Test
  void upperCaseDriverWarnsOnCreateAndUpdate() {
    ResourceSlice slice = slice(",\"nodeName\":\"n\"", "");
    slice.getSpec().setDriver("GPU.Example.com");
    assertThat(ResourceSliceStrategy.warningsOnCreate(slice)).containsExactly(
        "spec.driver: driver names should be lowercase; \"GPU.Example.com\" contains uppercase"
            + " characters");
    assertThat(ResourceSliceStrategy.warningsOnUpdate(slice, slice)).hasSize(1);
  }

  @Test
  void lowerCaseDriverHasNoWarning() {
    ResourceSlice slice = slice(",\"nodeName\":\"n\"", "");
    assertThat(ResourceSliceStrategy.warningsOnCreate(slice)).isEmpty();
    assertThat(ResourceSliceStrategy.warningsOnUpdate(slice, slice)).isEmpty();
  }
}
