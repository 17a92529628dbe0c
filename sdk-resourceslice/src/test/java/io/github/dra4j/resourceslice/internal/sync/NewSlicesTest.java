package io.github.dra4j.resourceslice.internal.sync;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.github.dra4j.resourceslice.Owner;
import io.github.dra4j.resourceslice.Slice;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The one shape of a slice the controller creates (sent by the sync, checked by validation). */
class NewSlicesTest {

  @Test
  void aNodeLocalSliceCarriesNameOwnerHeaderNodeAndContent() {
    NewSlices slices = new NewSlices("gpu.example.com", Owner.node("node-1", null), "node-1");
    ResourceSlice slice = slices.build("uid-1", PoolPlan.header("pool", 3, 17), 16, null, false,
        new Slice(List.of(new DeviceBuilder().withName("gpu-0").build()), List.of(), null));

    assertThat(slice.getMetadata().getName()).isNull();
    assertThat(slice.getMetadata().getGenerateName()).isEqualTo("00010-gpu.example.com-node-1-");
    assertThat(slice.getMetadata().getOwnerReferences()).singleElement()
        .extracting(OwnerReference::getApiVersion, OwnerReference::getKind,
            OwnerReference::getName, OwnerReference::getUid, OwnerReference::getController)
        .containsExactly("v1", "Node", "node-1", "uid-1", true);
    assertThat(slice.getSpec().getDriver()).isEqualTo("gpu.example.com");
    assertThat(slice.getSpec().getPool()).isEqualTo(PoolPlan.header("pool", 3, 17));
    assertThat(slice.getSpec().getNodeName()).isEqualTo("node-1");
    assertThat(slice.getSpec().getAllNodes()).isNull();
    assertThat(slice.getSpec().getNodeSelector()).isNull();
    assertThat(slice.getSpec().getDevices()).extracting(d -> d.getName()).containsExactly("gpu-0");
    assertThat(slice.getSpec().getPerDeviceNodeSelection()).isNull();
  }

  @Test
  void withoutOwnerThereIsNoReferenceAndNoOwnerInTheName() {
    ResourceSlice slice = new NewSlices("gpu.example.com", null, null).build(null,
        PoolPlan.header("pool", 0, 1), 0, null, true, new Slice(List.of(), List.of(), true));

    assertThat(slice.getMetadata().getGenerateName()).isEqualTo("00000-gpu.example.com-");
    assertThat(slice.getMetadata().getOwnerReferences()).isNullOrEmpty();
    assertThat(slice.getSpec().getNodeName()).isNull();
    assertThat(slice.getSpec().getAllNodes()).isTrue();
    assertThat(slice.getSpec().getPerDeviceNodeSelection()).isTrue();
  }
}
