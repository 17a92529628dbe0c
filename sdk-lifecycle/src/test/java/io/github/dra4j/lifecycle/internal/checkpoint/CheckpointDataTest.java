package io.github.dra4j.lifecycle.internal.checkpoint;

import static io.github.dra4j.lifecycle.internal.checkpoint.CheckpointSamples.BOOT;
import static io.github.dra4j.lifecycle.internal.checkpoint.CheckpointSamples.started;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.dra4j.resourceclaim.AllocatedDevice;
import io.github.dra4j.resourceclaim.RequestReference;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** The in-memory model: immutable, copied, checked like the decoder checks. */
class CheckpointDataTest {

  @Test
  void withWithoutAndEntryMakeNewDataAndLeaveTheOldAlone() {
    CheckpointData empty = CheckpointData.empty();
    CheckpointData one = empty.with("b", started("b"));
    CheckpointData two = one.with("a", started("a"));

    assertThat(empty.size()).isZero();
    assertThat(one.size()).isEqualTo(1);
    assertThat(two.claims().keySet()).containsExactly("a", "b");
    assertThat(two.entry("a")).contains(started("a"));
    assertThat(two.entry("c")).isEmpty();
    assertThat(two.without("a")).isEqualTo(one);
    assertThat(two.without("zzz")).isSameAs(two);
    assertThat(one.without("b")).isEqualTo(empty).isSameAs(CheckpointData.empty());
    assertThat(two.with("a", started("a2")).entry("a")).contains(started("a2"));
    assertThat(two.entry("a")).contains(started("a"));
  }

  @Test
  void equalDataIsEqualWhateverTheOrderOfAdding() {
    CheckpointData ab = CheckpointData.empty().with("a", started("a")).with("b", started("b"));
    CheckpointData ba = CheckpointData.of(Map.of("b", started("b"), "a", started("a")));

    assertThat(ab).isEqualTo(ba).hasSameHashCodeAs(ba);
    assertThat(ab).isNotEqualTo(ab.with("b", started("c")));
    assertThat(ba.claims().keySet()).containsExactly("a", "b");
    assertThat(ab.toString()).contains("a=ClaimEntry[phase=PREPARE_STARTED");
  }

  @Test
  void claimsCannotBeChangedThroughTheMap() {
    CheckpointData data = CheckpointData.empty().with("a", started("a"));

    assertThatThrownBy(() -> data.claims().put("b", started("b")))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void uidsThatCouldEscapeADirectoryAreRefused() {
    assertThatThrownBy(() -> CheckpointData.empty().with("../../etc", started("a")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("claims[\"../../etc\"]: invalid claim UID \"../../etc\"");
    assertThatThrownBy(() -> CheckpointData.of(Map.of("a/b", started("a"))))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> CheckpointData.empty().with("", started("a")))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void entriesCheckNamespaceNameAndBootId() {
    assertThatThrownBy(() -> ClaimEntry.started("ns/x", "n", BOOT, List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("namespace: invalid value \"ns/x\": must be a DNS label (at most 63 lower-case"
            + " letters, digits or '-')");
    assertThatThrownBy(() -> ClaimEntry.started("ns", "../n", BOOT, List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("name: invalid value \"../n\"");
    assertThatThrownBy(() -> ClaimEntry.started("ns", "n", "", List.of()))
        .hasMessage("bootId: required");
    assertThatThrownBy(() -> new StoredDevice(null, "p", "", null, null))
        .hasMessage("device: required");
    assertThatThrownBy(() -> new AllocatedDevice(RequestReference.parse("r"),
        null, "d", null, false, null, null))
        .hasMessage("pool");
  }

  @Test
  void listsAndMapsAreCopiedAndNullsBecomeEmpty() {
    List<AllocatedDevice> allocation = new ArrayList<>(List.of(AllocatedDevice.of("r", "p", "d")));
    Map<String, String> capacity = new HashMap<>(Map.of("memory", "1Gi"));
    AllocatedDevice device = new AllocatedDevice(RequestReference.parse("r"),
        "p", "d", null, false, capacity, null);
    ClaimEntry entry = ClaimEntry.started("ns", "n", BOOT, allocation);

    allocation.clear();
    capacity.put("cores", "2");

    assertThat(entry.allocation()).hasSize(1);
    assertThat(device.consumedCapacity()).containsOnlyKeys("memory");
    assertThatThrownBy(() -> entry.allocation().clear())
        .isInstanceOf(UnsupportedOperationException.class);
    ClaimEntry empty = new ClaimEntry(ClaimPhase.PREPARE_STARTED, "ns", "n", BOOT, null, null,
        null, null);
    assertThat(empty.allocation()).isEmpty();
    assertThat(empty.devices()).isEmpty();
    assertThat(new StoredDevice(null, "p", "d", null, null).requests()).isEmpty();
    assertThat(new StoredDevice(null, "p", "d", null, null).cdiDeviceIds()).isEmpty();
  }

  @Test
  void jsonValuesAreCopiedInAndOut() {
    ObjectNode state = CheckpointSamples.JSON.createObjectNode().put("slices", 4);
    ClaimEntry entry = started("n").completed(List.of(), null, state);

    state.put("slices", 5);
    ((ObjectNode) entry.driverState()).put("slices", 6);

    assertThat(entry.driverState().get("slices").intValue()).isEqualTo(4);
  }

  @Test
  void jsonNullIsStoredAsNull() {
    ClaimEntry entry = started("n").completed(List.of(),
        CheckpointSamples.JSON.nullNode(), CheckpointSamples.JSON.missingNode());

    assertThat(entry.cdiSpec()).isNull();
    assertThat(entry.driverState()).isNull();
    assertThat(entry).isEqualTo(started("n").completed(List.of(), null, null));
  }

  @Test
  void completedKeepsClaimBootAndAllocation() {
    ClaimEntry started = started("n");
    StoredDevice device = new StoredDevice(List.of("gpu"), "pool", "d0", List.of("v.com/c=x"),
        null);

    ClaimEntry completed = started.completed(List.of(device), null, null);

    assertThat(completed.phase()).isEqualTo(ClaimPhase.PREPARE_COMPLETED);
    assertThat(completed.allocation()).isEqualTo(started.allocation());
    assertThat(completed.bootId()).isEqualTo(started.bootId());
    assertThat(completed.devices()).containsExactly(device);
    assertThat(started.devices()).isEmpty();
  }

  @Test
  void phasesHaveTheirJsonValues() {
    assertThat(ClaimPhase.PREPARE_STARTED.jsonValue()).isEqualTo("PrepareStarted");
    assertThat(ClaimPhase.PREPARE_COMPLETED.jsonValue()).isEqualTo("PrepareCompleted");
    assertThat(ClaimPhase.fromJson("PrepareCompleted")).contains(ClaimPhase.PREPARE_COMPLETED);
    assertThat(ClaimPhase.fromJson("preparecompleted")).isEmpty();
    assertThat(ClaimPhase.fromJson(null)).isEmpty();
  }
}
