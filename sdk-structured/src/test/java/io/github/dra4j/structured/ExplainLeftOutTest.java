package io.github.dra4j.structured;

import static io.github.dra4j.structured.DraObjects.allocator;
import static io.github.dra4j.structured.DraObjects.classA;
import static io.github.dra4j.structured.DraObjects.claim;
import static io.github.dra4j.structured.DraObjects.consuming;
import static io.github.dra4j.structured.DraObjects.counterSet;
import static io.github.dra4j.structured.DraObjects.device;
import static io.github.dra4j.structured.DraObjects.deviceClass;
import static io.github.dra4j.structured.DraObjects.inputs;
import static io.github.dra4j.structured.DraObjects.request;
import static io.github.dra4j.structured.DraObjects.slice;
import static io.github.dra4j.structured.DraObjects.string;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import io.github.dra4j.structured.AllocationExplanation.DeviceVerdict;
import io.github.dra4j.structured.AllocationExplanation.NotConsidered;
import io.github.dra4j.structured.AllocationExplanation.Reason;
import io.github.dra4j.structured.AllocationExplanation.RequestExplanation;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link StructuredAllocator#explain} on what it does not list device by device: slices of an
 * older generation, pools made obsolete by a newer generation, slices that need a feature that is
 * off, other nodes' devices the request does not match; and a counter set that is simply too
 * small.
 */
class ExplainLeftOutTest {

  private static final String DRIVER = "driver-a";

  private static ResourceSlice generation(ResourceSlice slice, long generation, long count,
      String node) {
    return new ResourceSliceBuilder(slice).editSpec().withNodeName(node).editPool()
        .withGeneration(generation).withResourceSliceCount(count).endPool().endSpec().build();
  }

  private static AllocationExplanation explain(ResourceSlice... slices) {
    return allocator().explain(List.of(claim("c", request("gpu", "class-a"))),
        inputs().deviceClasses(classA()).slices(slices).build());
  }

  private static RequestExplanation only(AllocationExplanation explanation) {
    return explanation.claims().get(0).requests().get(0);
  }

  @Test
  void aCounterSetThatIsTooSmallSaysSoWhenNothingElseIsAllocated() {
    ResourceSlice devices = generation(slice("s", DRIVER, "p",
        consuming(device("big"), "mem", "memory", "10Gi")), 1, 2, DraObjects.NODE);
    ResourceSlice counters = new ResourceSliceBuilder(generation(
        slice("s-counters", DRIVER, "p", new Device[0]), 1, 2, DraObjects.NODE))
        .editSpec().withDevices().withSharedCounters(counterSet("mem", "memory", "8Gi"))
        .endSpec().build();
    DeviceVerdict big = only(explain(devices, counters)).devices().get(0);
    assertThat(big).extracting(DeviceVerdict::reason, DeviceVerdict::detail)
        .containsExactly(Reason.COUNTERS_EXHAUSTED, "counter set mem: counter memory: needs"
            + " 10Gi, the counter set has only 8Gi");
  }

  @Test
  void anOlderGenerationOfThePoolIsSummedUpNotListed() {
    AllocationExplanation explanation = explain(
        generation(slice("p-old", DRIVER, "p", device("old-0"), device("old-1")), 3, 1,
            DraObjects.NODE),
        generation(slice("p-new", DRIVER, "p", device("new-0")), 4, 1, DraObjects.NODE));
    assertThat(only(explanation).devices()).extracting(DeviceVerdict::device)
        .containsExactly("new-0");
    assertThat(explanation.notConsidered()).containsExactly(new NotConsidered(DRIVER, "p",
        List.of("p-old"), "generation 3 superseded by generation 4, not considered"));
  }

  @Test
  void aPoolMadeObsoleteByANewerGenerationForAnotherNode() {
    // generation 1 had two slices, one for this node; generation 2 has one, for node-2
    AllocationExplanation explanation = explain(
        generation(slice("q-1-a", DRIVER, "q", device("a-0")), 1, 2, DraObjects.NODE),
        generation(slice("q-2", DRIVER, "q", device("b-0")), 2, 1, "node-2"));
    assertThat(only(explanation).devices())
        .extracting(DeviceVerdict::device, DeviceVerdict::reason)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("b-0", Reason.WRONG_NODE));
    assertThat(explanation.notConsidered()).containsExactly(new NotConsidered(DRIVER, "q",
        List.of("q-1-a"), "generation 1 superseded by generation 2, not considered"));
  }

  @Test
  void slicesThatNeedAFeatureThatIsOffAreSummedUp() {
    ResourceSlice counters = new ResourceSliceBuilder(slice("c", DRIVER, "c", new Device[0]))
        .editSpec().withDevices().withSharedCounters(counterSet("mem", "memory", "8Gi"))
        .endSpec().build();
    AllocationExplanation explanation = allocator(AllocatorFeatures.DEFAULTS
        .withPartitionableDevices(false)).explain(List.of(claim("c", request("gpu", "class-a"))),
            inputs().deviceClasses(classA()).slices(counters).build());
    assertThat(explanation.notConsidered()).extracting(NotConsidered::slices,
        NotConsidered::reason).containsExactly(
            org.assertj.core.groups.Tuple.tuple(List.of("c"),
                "uses shared counters or per-device node selection and the DRAPartitionableDevices"
                    + " feature is off, not considered"));
  }

  @Test
  void otherNodesDevicesTheRequestDoesNotMatchAreCountedPerPool() {
    ResourceSlice nics = generation(slice("node-3-nics", "driver-b", "node-3", device("nic-0"),
        device("nic-1")), 1, 1, "node-3");
    ResourceSlice t4 = generation(slice("node-2-gpus", DRIVER, "node-2",
        device("t4").addToAttributes("model", string("T4")),
        device("a100").addToAttributes("model", string("A100"))), 1, 1, "node-2");
    AllocationExplanation explanation = allocator().explain(
        List.of(claim("c", request("gpu", "a100"))), inputs()
            .deviceClasses(deviceClass("a100", "device.driver == \"driver-a\"",
                "device.attributes[\"driver-a\"].model == \"A100\""))
            .slices(nics, t4).build());
    RequestExplanation request = only(explanation);
    assertThat(request.devices()).extracting(DeviceVerdict::device).containsExactly("a100");
    assertThat(request.unmatchedElsewhere()).extracting(NotConsidered::poolId,
        NotConsidered::slices, NotConsidered::reason).containsExactly(
            org.assertj.core.groups.Tuple.tuple("driver-a/node-2", List.of("node-2-gpus"),
                "1 device for node node-2 does not match the request's selectors"),
            org.assertj.core.groups.Tuple.tuple("driver-b/node-3", List.of("node-3-nics"),
                "2 devices for node node-3 do not match the request's selectors"));
    assertThat(explanation.notConsidered()).isEmpty();
  }
}
