package io.github.dra4j.resourceapi.internal.slice;

import static io.github.dra4j.resourceapi.internal.slice.ResourceSliceValidationTest.strings;
import static io.github.dra4j.resourceapi.internal.slice.SliceFixtures.GATES;
import static io.github.dra4j.resourceapi.internal.slice.SliceFixtures.JSON;
import static io.github.dra4j.resourceapi.internal.slice.SliceFixtures.attribute;
import static io.github.dra4j.resourceapi.internal.slice.SliceFixtures.first;
import static io.github.dra4j.resourceapi.internal.slice.SliceFixtures.json;
import static io.github.dra4j.resourceapi.internal.slice.SliceFixtures.slice;
import static io.github.dra4j.resourceapi.internal.slice.SliceFixtures.taint;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.github.dra4j.resourceapi.internal.slice.SliceFixtures.Case;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Updates of a slice: what may not change, and the taints of a stored device that are not
 * checked again. Cases after Kubernetes' TestValidateResourceSliceUpdate, in our words.
 */
class ResourceSliceUpdateTest {

  /** An update: the stored slice and the new one. */
  record Update(ResourceSlice old, ResourceSlice slice) {}

  static Stream<Case> updates() {
    return Stream.of(
        new Case("no change", update(valid(), s -> {})),
        new Case("name changed", update(valid(), s -> s.getMetadata().setName("valid-update")),
            "Invalid metadata.name"),
        new Case("node name changed", update(valid(), s -> s.getSpec()
            .setNodeName("valid-updated")), "Invalid spec.nodeName"),
        new Case("node name removed for all nodes", update(valid(), s -> {
          s.getSpec().setNodeName(null);
          s.getSpec().setAllNodes(true);
        }), "Invalid spec.nodeName"),
        new Case("driver changed", update(valid(), s -> s.getSpec().setDriver("valid-updated")),
            "Invalid spec.driver"),
        new Case("pool name changed", update(valid(), s -> s.getSpec().getPool()
            .setName("valid-updated")), "Invalid spec.pool.name"),
        new Case("pool generation and slice count changed", update(valid(), s -> {
          s.getSpec().getPool().setGeneration(2L);
          s.getSpec().getPool().setResourceSliceCount(3L);
        })),
        new Case("devices changed", update(valid(), s -> s.getSpec().getDevices()
            .add(SliceFixtures.device("device-1")))),
        new Case("node selector changed to a bad label value", update(withSelector("bar"),
            s -> s.getSpec().setNodeSelector(selector("-1"))),
            "Invalid spec.nodeSelector.nodeSelectorTerms[0].matchExpressions[0].values[0]"),
        new Case("unsupported effect added to a stored device", update(valid(),
            s -> first(s).setTaints(badTaints())), "NotSupported spec.devices[0].taints[1].effect"),
        new Case("unsupported effect kept on a stored device", update(withBadTaints(),
            s -> first(s).getAttributes().put("foo", attribute("{'string': 'bar'}")))),
        new Case("unsupported effect on a new device", update(withBadTaints(), s -> {
          Device copy = copy(first(s));
          copy.setName(copy.getName() + "-other");
          s.getSpec().getDevices().add(copy);
        }), "NotSupported spec.devices[1].taints[1].effect"),
        new Case("stored taints reordered", update(withBadTaints(), s -> first(s)
            .setTaints(List.of(badTaints().get(1), badTaints().get(0)))),
            "NotSupported spec.devices[0].taints[0].effect"),
        new Case("options that round to one whole number", update(consumable(null),
            s -> first(s).getCapacity().get("a").getRequestPolicy().getValidValues()
                .set(0, new io.fabric8.kubernetes.api.model.Quantity("9.9"))),
            "Duplicate spec.devices[0].capacity[a].requestPolicy.validValues[1]"),
        // Kubernetes 1.37 does not check an unchanged capacity map again and accepts this.
        new Case("stored options that round to one whole number", update(consumable("9.9"),
            s -> {}), "Duplicate spec.devices[0].capacity[a].requestPolicy.validValues[1]"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("updates")
  void validatesUpdate(Case c) {
    Update update = (Update) c.input();
    c.check(ResourceSliceValidation.validateUpdate(update.slice(), update.old(), GATES));
  }

  @Test
  void wordsImmutableFieldsAsTheServer() {
    Update node = update(valid(), s -> s.getSpec().setNodeName("valid-updated"));
    assertThat(strings(ResourceSliceValidation.validateUpdate(node.slice(), node.old(), GATES)))
        .containsExactly("spec.nodeName: Invalid value: \"valid-updated\": field is immutable");
    Update removed = update(valid(), s -> {
      s.getSpec().setNodeName(null);
      s.getSpec().setAllNodes(true);
    });
    assertThat(strings(ResourceSliceValidation.validateUpdate(removed.slice(), removed.old(),
        GATES))).containsExactly("spec.nodeName: Invalid value: null: field is immutable");
    Update pool = update(valid(), s -> s.getSpec().getPool().setName("valid-updated"));
    assertThat(strings(ResourceSliceValidation.validateUpdate(pool.slice(), pool.old(), GATES)))
        .containsExactly("spec.pool.name: Invalid value: \"valid-updated\": field is immutable");
  }

  private static ResourceSlice valid() {
    ResourceSlice slice = slice("valid", "valid", "valid", 1);
    slice.getMetadata().setResourceVersion("1");
    return slice;
  }

  private static Update update(ResourceSlice old, Consumer<ResourceSlice> change) {
    ResourceSlice slice = JSON.readValue(JSON.writeValueAsString(old), ResourceSlice.class);
    slice.getSpec().setDevices(new ArrayList<>(slice.getSpec().getDevices()));
    change.accept(slice);
    return new Update(old, slice);
  }

  private static ResourceSlice withSelector(String value) {
    ResourceSlice slice = valid();
    slice.getSpec().setNodeName(null);
    slice.getSpec().setNodeSelector(selector(value));
    return slice;
  }

  private static NodeSelector selector(String value) {
    return json("{'nodeSelectorTerms': [{'matchExpressions': [{'key': 'foo', 'operator': 'In', "
        + "'values': ['" + value + "']}]}]}", NodeSelector.class);
  }

  private static List<io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint> badTaints() {
    return List.of(taint("{'key': 'unhealthy-power', 'effect': 'NoExecute'}"),
        taint("{'key': 'unhealthy-mem', 'effect': 'some-other-effect'}"));
  }

  private static ResourceSlice withBadTaints() {
    ResourceSlice slice = valid();
    first(slice).setTaints(badTaints());
    return slice;
  }

  private static Device copy(Device device) {
    return JSON.readValue(JSON.writeValueAsString(device), Device.class);
  }

  // Kubernetes' consumable capacity test device: "a" of 100, default 10, options 5, 10, 100; the
  // first option replaced when given.
  private static ResourceSlice consumable(String firstOption) {
    ResourceSlice slice = valid();
    first(slice).setAllowMultipleAllocations(true);
    first(slice).setAttributes(null);
    Map<String, DeviceCapacity> capacity = new LinkedHashMap<>();
    capacity.put("a", json("{'value': '100', 'requestPolicy': {'default': '10', "
        + "'validValues': ['" + (firstOption == null ? "5" : firstOption) + "', '10', '100']}}",
        DeviceCapacity.class));
    first(slice).setCapacity(capacity);
    return slice;
  }
}
