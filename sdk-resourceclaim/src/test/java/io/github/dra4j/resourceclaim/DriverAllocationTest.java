package io.github.dra4j.resourceclaim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DriverAllocationTest {

  private static ResourceClaim claim(DeviceRequestAllocationResultBuilder... results) {
    return new ResourceClaimBuilder()
        .withNewMetadata().withNamespace("ns").withName("c").withUid("uid-1").endMetadata()
        .withNewStatus().withNewAllocation().withNewDevices()
        .withResults(Arrays.stream(results).map(b -> b.build()).toList())
        .endDevices().endAllocation().endStatus().build();
  }

  private static DeviceRequestAllocationResultBuilder result(String driver, String request,
      String device) {
    return new DeviceRequestAllocationResultBuilder().withDriver(driver).withRequest(request)
        .withPool("node-1").withDevice(device);
  }

  @Test
  void keepsOnlyThisDriversResultsInClaimOrderWithEveryField() {
    DriverAllocation allocation = DriverAllocation.of(claim(
        result("gpu.example.com", "gpu/large", "gpu-1").withAdminAccess(true)
            .withBindingConditions("attached"),
        result("nic.example.com", "nic", "eth0"),
        result("gpu.example.com", "shared", "gpu-0").withShareID("share-7")
            .withConsumedCapacity(Map.of("memory", new Quantity("10Gi"),
                "cores", new Quantity("500m")))),
        "gpu.example.com");

    assertThat(allocation.claim()).isEqualTo(new ClaimReference("ns", "c", "uid-1"));
    assertThat(allocation.devices()).hasSize(2);
    AllocatedDevice first = allocation.devices().get(0);
    assertThat(first.request()).isEqualTo(RequestReference.of("gpu", "large"));
    assertThat(first.baseRequest()).isEqualTo("gpu");
    assertThat(first.adminAccess()).isTrue();
    assertThat(first.isExclusive()).isFalse();
    assertThat(first.bindingConditions()).containsExactly("attached");
    assertThat(first.share()).isEmpty();
    AllocatedDevice second = allocation.devices().get(1);
    assertThat(second.shareId()).isEqualTo("share-7");
    assertThat(second.fullName()).isEqualTo("node-1/gpu-0/share-7");
    assertThat(second.consumedCapacity()).containsExactly(
        Map.entry("cores", "500m"), Map.entry("memory", "10Gi"));
    assertThat(allocation.devicesFor(RequestReference.of("gpu")))
        .containsExactly(first);
    assertThat(allocation.devicesFor(RequestReference.of("gpu", "small"))).isEmpty();
  }

  @Test
  void anExclusiveDeviceHasNeitherAdminAccessNorAShare() {
    AllocatedDevice device = AllocatedDevice.of("gpu", "node-1", "gpu-0");
    assertThat(device.isExclusive()).isTrue();
    assertThat(device.fullName()).isEqualTo("node-1/gpu-0");
    assertThat(device.consumedCapacity()).isEmpty();
  }

  @Test
  void aClaimThatIsNotAllocatedIsRefusedNamingTheClaimAndTheField() {
    ResourceClaim pending = new ResourceClaimBuilder()
        .withNewMetadata().withNamespace("ns").withName("c").withUid("u").endMetadata().build();

    assertThatThrownBy(() -> DriverAllocation.of(pending, "gpu.example.com"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("claim ns/c: status.allocation.devices is not set");
  }

  @Test
  void aResultWithoutADeviceIsRefusedNamingItsIndex() {
    ResourceClaim broken = claim(result("gpu.example.com", "gpu", "gpu-0"),
        result("gpu.example.com", "gpu", null));

    assertThatThrownBy(() -> DriverAllocation.of(broken, "gpu.example.com"))
        .hasMessage("claim ns/c: status.allocation.devices.results[1].device is empty");
  }

  @Test
  void anEmptyShareIdIsRefused() {
    assertThatThrownBy(() -> new AllocatedDevice(RequestReference.of("gpu"), "p", "d", "",
        false, null, List.of()))
        .hasMessageStartingWith("shareId is empty");
  }
}
