package io.github.dra4j.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.github.dra4j.kubeletplugin.CallContext;
import io.github.dra4j.resourceclaim.AllocatedDevice;
import io.github.dra4j.resourceclaim.DriverAllocation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What the API makes a driver say, and the order in which it lets a driver say it. */
class ClaimDriverContractTest {

  @Test
  void rollbackHasNoDefaultSoEveryDriverDecidesWhatAHalfDonePrepareLeaves() throws Exception {
    Method rollback = ClaimDriver.class.getMethod("rollback", DriverAllocation.class,
        Optional.class, CallContext.class);
    assertThat(rollback.isDefault()).as("a default rollback that does nothing leaks hardware work"
        + " of a prepare that threw").isFalse();
    assertThat(Modifier.isAbstract(rollback.getModifiers())).isTrue();
  }

  private static List<AllocatedDevice> devices() {
    ResourceClaim claim = new ResourceClaimBuilder()
        .withNewMetadata().withNamespace("ns").withName("c").withUid("u").endMetadata()
        .withNewStatus().withNewAllocation().withNewDevices()
        .withResults(new DeviceRequestAllocationResultBuilder().withDriver("gpu.example.com")
            .withRequest("gpu").withPool("node-1").withDevice("gpu-0").build(),
            new DeviceRequestAllocationResultBuilder().withDriver("gpu.example.com")
                .withRequest("gpu").withPool("node-1").withDevice("gpu-1").build())
        .endDevices().endAllocation().endStatus().build();
    return DriverAllocation.of(claim, "gpu.example.com").devices();
  }

  /** A driver's state, known only after the hardware work done per device. */
  private record Partitions(List<String> ids) {}

  @Test
  void devicesComeFirstAndTheStateWhenTheDriverKnowsIt() {
    List<AllocatedDevice> devices = devices();
    PreparedClaim.Builder<Partitions> prepared = PreparedClaim.builder();
    for (AllocatedDevice device : devices) {
      prepared.device(device, edits -> edits.env("GPU", device.device()));
    }
    PreparedClaim<Partitions> result = prepared.state(new Partitions(List.of("p-0", "p-1")))
        .build();
    assertThat(result.state().ids()).containsExactly("p-0", "p-1");
    assertThat(result.deviceEdits().keySet()).containsExactlyElementsOf(devices);

    PreparedClaim<Partitions> none = PreparedClaim.<Partitions> builder()
        .device(devices.get(0), edits -> edits.env("GPU", "gpu-0")).build();
    assertThat(none.state()).isNull();
    assertThat(PreparedClaim.builder(new Partitions(List.of("old"))).state(null).build().state())
        .isNull();
  }

  @Test
  void aBadEnvironmentNameFailsThePrepareWhereTheDriverWritesIt() {
    AllocatedDevice gpu = devices().get(0);
    assertThatThrownBy(() -> PreparedClaim.builder().device(gpu, edits -> edits.env("BAD=NAME",
        "1"))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("\"BAD=NAME\"");
  }
}
