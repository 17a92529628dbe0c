package io.github.dra4j.resourceslice.internal.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacityBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.api.Test;

class SliceConversionTest {

  private final SliceConversion conversion = new SliceConversion(new KubernetesSerialization());

  private static ResourceSlice slice() {
    return new ResourceSliceBuilder()
        .withNewMetadata().withName("s").withResourceVersion("7").endMetadata()
        .withNewSpec().withDriver("gpu.example.com").withNodeName("n")
        .withNewPool().withName("p").withGeneration(2L).withResourceSliceCount(1L).endPool()
        .addNewDevice().withName("gpu-0")
        .addToAttributes("model", new DeviceAttributeBuilder().withString("a100").build())
        .addToCapacity("memory",
            new DeviceCapacityBuilder().withValue(new Quantity("40Gi")).build())
        .addNewTaint().withKey("k").withEffect("NoSchedule").endTaint()
        .endDevice()
        .endSpec().build();
  }

  @Test
  void v1beta1NestsDeviceFieldsUnderBasic() {
    HasMetadata beta1 = conversion.fromV1(slice(), SliceVersion.V1BETA1);
    var typed = (io.fabric8.kubernetes.api.model.resource.v1beta1.ResourceSlice) beta1;
    assertThat(typed.getApiVersion()).isEqualTo("resource.k8s.io/v1beta1");
    var device = typed.getSpec().getDevices().get(0);
    assertThat(device.getName()).isEqualTo("gpu-0");
    assertThat(device.getBasic().getAttributes().get("model").getString()).isEqualTo("a100");
    assertThat(device.getBasic().getCapacity().get("memory").getValue())
        .isEqualTo(new Quantity("40Gi"));
    assertThat(device.getBasic().getTaints()).hasSize(1);
    assertThat(typed.getMetadata().getResourceVersion()).isEqualTo("7");
  }

  @Test
  void everyVersionRoundTripsToTheSameV1Slice() {
    for (SliceVersion version : SliceVersion.values()) {
      ResourceSlice back = conversion.toV1(conversion.fromV1(slice(), version));
      assertThat(back).as(version.name()).isEqualTo(slice());
    }
  }

  @Test
  void v1beta1ZeroValuesMeanUnsetInV1() {
    var beta1 = (io.fabric8.kubernetes.api.model.resource.v1beta1.ResourceSlice) conversion
        .fromV1(slice(), SliceVersion.V1BETA1);
    beta1.getSpec().setNodeName("");
    beta1.getSpec().setAllNodes(false);
    ResourceSlice v1 = conversion.toV1(beta1);
    assertThat(v1.getSpec().getNodeName()).isNull();
    assertThat(v1.getSpec().getAllNodes()).isNull();
    assertThat(v1.getSpec().getDevices().get(0).getAttributes()).containsKey("model");
  }

  @Test
  void negotiationOrderWrapsAround() {
    assertThat(SliceVersion.V1.next()).isEqualTo(SliceVersion.V1BETA2);
    assertThat(SliceVersion.V1BETA2.next()).isEqualTo(SliceVersion.V1BETA1);
    assertThat(SliceVersion.V1BETA1.next()).isEqualTo(SliceVersion.V1);
  }
}
