package io.github.dra4j.resourceapi.internal.slice;

import static io.github.dra4j.resourceapi.internal.slice.ResourceSliceValidationTest.strings;
import static io.github.dra4j.resourceapi.internal.slice.SliceFixtures.BAD;
import static io.github.dra4j.resourceapi.internal.slice.SliceFixtures.GATES;
import static io.github.dra4j.resourceapi.internal.slice.SliceFixtures.GOOD;
import static io.github.dra4j.resourceapi.internal.slice.SliceFixtures.consumption;
import static io.github.dra4j.resourceapi.internal.slice.SliceFixtures.consumptions;
import static io.github.dra4j.resourceapi.internal.slice.SliceFixtures.counters;
import static io.github.dra4j.resourceapi.internal.slice.SliceFixtures.first;
import static io.github.dra4j.resourceapi.internal.slice.SliceFixtures.json;
import static io.github.dra4j.resourceapi.internal.slice.SliceFixtures.sharedCounters;
import static io.github.dra4j.resourceapi.internal.slice.SliceFixtures.slice;
import static io.github.dra4j.resourceapi.internal.slice.SliceFixtures.taint;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCounterConsumption;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.github.dra4j.resourceapi.internal.slice.SliceFixtures.Case;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Shared counter sets, counter consumptions and device taints. Cases after Kubernetes'
 * TestValidateResourceSlice, in our words.
 */
class CounterAndTaintValidationTest {

  private static final String SET = "spec.sharedCounters[0]";
  private static final String USE = "spec.devices[0].consumesCounters";
  private static final String TAINTS = "spec.devices[0].taints";

  static Stream<Case> cases() {
    return Stream.of(
        // shared counter sets
        new Case("counter set without name", sets(set(null, true)), "Required " + SET + ".name"),
        new Case("counter set with a bad name", sets(set(BAD, true)), "Invalid " + SET + ".name"),
        new Case("counter set name of 64 characters", sets(set("c".repeat(64), true)),
            "Invalid " + SET + ".name"),
        new Case("counter set without counters", sets(set(GOOD, false)),
            "Required " + SET + ".counters"),
        new Case("counter with a bad name", sets(json("{'name': 'foo', 'counters': {'"
            + BAD + "': {'value': '1Gi'}}}", CounterSet.class)), "Invalid " + SET + ".counters"),
        new Case("duplicate counter sets", sets(set(GOOD, true), set(GOOD, true)),
            "Duplicate spec.sharedCounters[1]"),
        new Case("32 counters in a set", setWithCounters(32)),
        new Case("33 counters in a set", setWithCounters(33), "TooMany " + SET + ".counters"),
        new Case("counter of zero", sets(json("{'name': 'foo', 'counters': {'memory': "
            + "{'value': '0'}}}", CounterSet.class))),
        // counter consumptions
        new Case("consumption without counter set", consuming(consumption(null)),
            "Required " + USE + "[0].counterSet"),
        new Case("consumption of a bad counter set", consuming(consumption(BAD)),
            "Invalid " + USE + "[0].counterSet"),
        new Case("consumption of one set twice", consuming(consumption(GOOD),
            consumption(GOOD)), "Duplicate " + USE + "[1]"),
        new Case("consumption without counters", consuming(json("{'counterSet': "
            + "'counterset-0'}", DeviceCounterConsumption.class)),
            "Required " + USE + "[0].counters"),
        new Case("consumption of a badly named counter", consuming(json("{'counterSet': "
            + "'counterset-0', 'counters': {'Memory': {'value': '1Gi'}}}",
            DeviceCounterConsumption.class)), "Invalid " + USE + "[0].counters"),
        new Case("2 consumptions", slice(s -> {
          first(s).setAttributes(null);
          first(s).setCapacity(null);
          first(s).setConsumesCounters(consumptions(2));
        })),
        new Case("3 consumptions", slice(s -> first(s).setConsumesCounters(consumptions(3))),
            "TooMany " + USE),
        new Case("32 counters consumed", consumingCounters(32)),
        new Case("33 counters consumed", consumingCounters(33),
            "TooMany " + USE + "[0].counters"),
        // taints
        new Case("taints, good and bad", slice(3, s -> first(s).setTaints(List.of(
            taint("{'key': 'example.com/taint', 'effect': 'NoExecute'}"),
            taint("{'key': 'taint', 'value': 'tainted', 'effect': 'NoSchedule', "
                + "'timeAdded': '2026-04-22T10:00:00Z'}"),
            new DeviceTaint(),
            taint("{'key': '" + BAD + "', 'value': '" + BAD
                + "', 'effect': 'some-other-effect'}")))),
            "Invalid " + TAINTS + "[2].key", "Invalid " + TAINTS + "[2].key",
            "Required " + TAINTS + "[2].effect",
            "Invalid " + TAINTS + "[3].key", "Invalid " + TAINTS + "[3].value",
            "NotSupported " + TAINTS + "[3].effect"),
        new Case("taint effect None", tainted("{'key': 'example.com/taint', 'effect': 'None'}")),
        new Case("taint effect PreferNoSchedule", tainted("{'key': 'example.com/taint', "
            + "'effect': 'PreferNoSchedule'}"), "NotSupported " + TAINTS + "[0].effect"),
        new Case("taint value of 64 characters", tainted("{'key': 'example.com/taint', "
            + "'value': '" + "v".repeat(64) + "', 'effect': 'NoSchedule'}"),
            "Invalid " + TAINTS + "[0].value"),
        new Case("taint key with a bad prefix", tainted("{'key': 'Example_com/taint', "
            + "'effect': 'NoSchedule'}"), "Invalid " + TAINTS + "[0].key"),
        new Case("16 taints", manyTaints(16)),
        new Case("17 taints", manyTaints(17), "TooMany " + TAINTS));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void validates(Case c) {
    c.check(ResourceSliceValidation.validate((ResourceSlice) c.input(), GATES));
  }

  @Test
  void wordsCounterErrorsAsTheServer() {
    assertThat(strings(ResourceSliceValidation.validate(sharedCounters(9), GATES)))
        .containsExactly("spec.sharedCounters: Too many: 9: must have at most 8 items");
    assertThat(strings(ResourceSliceValidation.validate(sets(set(GOOD, true), set(GOOD, true)),
        GATES))).containsExactly("spec.sharedCounters[1]: Duplicate value: \"foo\"");
    assertThat(strings(ResourceSliceValidation.validate(sets(set(GOOD, false)), GATES)))
        .containsExactly(SET + ".counters: Required value");
    assertThat(strings(ResourceSliceValidation.validate(consumingCounters(33), GATES)))
        .containsExactly(USE + "[0].counters: Too many: 33: must have at most 32 items");
  }

  private static CounterSet set(String name, boolean withCounters) {
    CounterSet set = new CounterSet();
    set.setName(name);
    set.setCounters(withCounters ? counters(1) : null);
    return set;
  }

  private static ResourceSlice sets(CounterSet... sets) {
    ResourceSlice slice = sharedCounters(0);
    slice.getSpec().setSharedCounters(new ArrayList<>(List.of(sets)));
    return slice;
  }

  private static ResourceSlice setWithCounters(int count) {
    ResourceSlice slice = sharedCounters(1);
    slice.getSpec().getSharedCounters().get(0).setCounters(counters(count));
    return slice;
  }

  private static ResourceSlice consuming(DeviceCounterConsumption... consumptions) {
    return slice(s -> first(s).setConsumesCounters(new ArrayList<>(List.of(consumptions))));
  }

  private static ResourceSlice consumingCounters(int count) {
    DeviceCounterConsumption consumption = consumption("counterset-0");
    consumption.setCounters(counters(count));
    return consuming(consumption);
  }

  private static ResourceSlice tainted(String taint) {
    return slice(s -> first(s).setTaints(List.of(taint(taint))));
  }

  private static ResourceSlice manyTaints(int count) {
    List<DeviceTaint> taints = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      taints.add(taint("{'key': 'example.com/taint', 'effect': 'NoExecute'}"));
    }
    return slice(s -> first(s).setTaints(taints));
  }
}
