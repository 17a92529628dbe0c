package io.github.dra4j.resourceslice.internal.sync;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.CounterSetBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceSpec;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceSpecBuilder;
import io.github.dra4j.resourceslice.DroppedFieldsException;
import io.github.dra4j.resourceslice.Slice;
import java.util.List;
import org.junit.jupiter.api.Test;

class DroppedFieldsTest {

  private static Device full() {
    return new DeviceBuilder().withName("d")
        .addNewTaint().withKey("k").withEffect("NoSchedule").endTaint()
        .addNewConsumesCounter().withCounterSet("s").endConsumesCounter()
        .withBindingConditions("ready").withBindingFailureConditions("failed")
        .withAllowMultipleAllocations(true)
        .build();
  }

  private static ResourceSliceSpec stored(Device device) {
    return new ResourceSliceSpecBuilder().withDevices(device).build();
  }

  @Test
  void featuresAreNamedInOrderEachOnce() {
    DesiredSlice desired = new DesiredSlice(List.of(full(), full()),
        List.of(new CounterSetBuilder().withName("s").build()), true);
    Device bare = new DeviceBuilder().withName("d").build();
    ResourceSliceSpec actual = new ResourceSliceSpecBuilder().withDevices(bare, bare).build();
    assertThat(DroppedFields.detect(desired, actual)).containsExactly("DRADeviceTaints",
        "DRAPartitionableDevices", "DRADeviceBindingConditions", "DRAConsumableCapacity");
  }

  @Test
  void eachFeatureAlone() {
    Device tainted = new DeviceBuilder().withName("d").addNewTaint().withKey("k")
        .withEffect("NoSchedule").endTaint().build();
    assertThat(DroppedFields.detect(new DesiredSlice(List.of(tainted), List.of(), null),
        stored(new DeviceBuilder().withName("d").build()))).containsExactly("DRADeviceTaints");
    assertThat(DroppedFields.detect(new DesiredSlice(List.of(), List.of(), true),
        new ResourceSliceSpec())).containsExactly("DRAPartitionableDevices");
    Device binding = new DeviceBuilder().withName("d").withBindingConditions("c").build();
    assertThat(DroppedFields.detect(new DesiredSlice(List.of(binding), List.of(), null),
        stored(new DeviceBuilder().withName("d").build())))
        .containsExactly("DRADeviceBindingConditions");
    Device multi = new DeviceBuilder().withName("d").withAllowMultipleAllocations(false).build();
    assertThat(DroppedFields.detect(new DesiredSlice(List.of(multi), List.of(), null),
        stored(new DeviceBuilder().withName("d").build())))
        .containsExactly("DRAConsumableCapacity");
  }

  @Test
  void messageMatchesTheGoController() {
    DroppedFieldsException taints = new DroppedFieldsException("pool", 0, Slice.of(List.of()),
        Slice.of(List.of()), List.of("DRADeviceTaints"));
    assertThat("update ResourceSlice: " + taints.getMessage()).isEqualTo(
        "update ResourceSlice: pool \"pool\", slice #0: some fields were dropped by the apiserver,"
            + " probably because these features are disabled: DRADeviceTaints");
    DroppedFieldsException unknown = new DroppedFieldsException("p", 3, Slice.of(List.of()),
        Slice.of(List.of()), List.of());
    assertThat(unknown.getMessage()).endsWith("slice #3: some fields were dropped by the apiserver,"
        + " probably because these features are disabled: unknown");
  }
}
