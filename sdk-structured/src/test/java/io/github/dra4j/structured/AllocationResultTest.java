package io.github.dra4j.structured;

import static io.github.dra4j.structured.DraObjects.allocated;
import static io.github.dra4j.structured.DraObjects.allocator;
import static io.github.dra4j.structured.DraObjects.claim;
import static io.github.dra4j.structured.DraObjects.classA;
import static io.github.dra4j.structured.DraObjects.device;
import static io.github.dra4j.structured.DraObjects.deviceClass;
import static io.github.dra4j.structured.DraObjects.inputs;
import static io.github.dra4j.structured.DraObjects.labelSelector;
import static io.github.dra4j.structured.DraObjects.request;
import static io.github.dra4j.structured.DraObjects.slice;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorTermBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClaimConfigurationBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassConfigurationBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.OpaqueDeviceConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.OpaqueDeviceConfigurationBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The claim's {@code status.allocation}: configuration (13.3) and node selector (13.4). */
class AllocationResultTest {

  private static OpaqueDeviceConfiguration opaque(String marker) {
    return new OpaqueDeviceConfigurationBuilder().withDriver("driver-a")
        .withParameters(Map.of("marker", marker)).build();
  }

  private static DeviceClass configured(String name, String driver, String marker) {
    DeviceClass deviceClass = deviceClass(name, "device.driver == \"" + driver + "\"");
    deviceClass.getSpec().setConfig(
        List.of(new DeviceClassConfigurationBuilder().withOpaque(opaque(marker)).build()));
    return deviceClass;
  }

  private static List<DeviceAllocationConfiguration> config(AllocationOutcome outcome) {
    return allocated(outcome).claim().getStatus().getAllocation().getDevices().getConfig();
  }

  private static String describe(DeviceAllocationConfiguration c) {
    List<String> requests = c.getRequests() == null ? List.of() : c.getRequests();
    return c.getSource() + " " + requests + " "
        + ((Map<?, ?>) c.getOpaque().getParameters()).get("marker");
  }

  @Test
  void classConfigsListTheirRequestsUnlessTheyCoverAllOfThem() {
    AllocatorInputs inputs = inputs()
        .deviceClasses(configured("class-a", "driver-a", "A"),
            configured("class-b", "driver-b", "B"))
        .slices(slice("slice-1", "driver-a", "pool-1", device("device-1"), device("device-2")),
            slice("slice-2", "driver-b", "pool-2", device("device-3")))
        .build();
    AllocationOutcome mixed = allocator().allocate(claim("claim-0",
        request("req-0", "class-a"), request("req-1", "class-a"), request("req-2", "class-b")),
        inputs);
    assertThat(config(mixed)).extracting(AllocationResultTest::describe)
        .containsExactly("FromClass [req-0, req-1] A", "FromClass [req-2] B");

    AllocationOutcome single = allocator().allocate(claim("claim-0", request("req-0", "class-a")),
        inputs);
    assertThat(config(single)).extracting(AllocationResultTest::describe)
        .containsExactly("FromClass [] A");
    assertThat(config(single).get(0).getRequests()).isNullOrEmpty();
  }

  @Test
  void claimConfigsFollowTheChosenSubrequest() {
    ResourceClaim claim = claim("claim-0",
        new DeviceRequestBuilder().withName("req-0").withFirstAvailable(
            new DeviceSubRequestBuilder().withName("b").withDeviceClassName("class-b").build(),
            new DeviceSubRequestBuilder().withName("a").withDeviceClassName("class-a").build())
            .build(),
        request("req-1", "class-a"));
    claim.getSpec().getDevices().setConfig(List.of(
        new DeviceClaimConfigurationBuilder().withOpaque(opaque("all")).build(),
        new DeviceClaimConfigurationBuilder().withRequests("req-0/b").withOpaque(opaque("unchosen"))
            .build(),
        new DeviceClaimConfigurationBuilder().withRequests("req-0/a").withOpaque(opaque("chosen"))
            .build(),
        new DeviceClaimConfigurationBuilder().withRequests("req-1").withOpaque(opaque("parent"))
            .build(),
        new DeviceClaimConfigurationBuilder().withRequests("req-0", "req-1")
            .withOpaque(opaque("both")).build()));
    AllocationOutcome outcome = allocator().allocate(claim, inputs()
        .deviceClasses(classA(), deviceClass("class-b", "device.driver == \"driver-b\""))
        .slices(slice("slice-1", "driver-a", "pool-1", device("device-1"), device("device-2")))
        .build());
    assertThat(config(outcome)).extracting(AllocationResultTest::describe).containsExactly(
        "FromClaim [] all", "FromClaim [req-0/a] chosen", "FromClaim [req-1] parent",
        "FromClaim [] both");
  }

  @Test
  void devicesForAllNodesNeedNoNodeSelector() {
    ResourceSlice everywhere = slice("slice-1", "driver-a", "pool-1", device("device-1"));
    everywhere.getSpec().setNodeName(null);
    everywhere.getSpec().setAllNodes(true);
    AllocationOutcome outcome = allocator().allocate(claim("claim-0", request("req-0", "class-a")),
        inputs().deviceClasses(classA()).slices(everywhere).build());
    assertThat(allocated(outcome).claim().getStatus().getAllocation().getNodeSelector()).isNull();
  }

  @Test
  void bindsToNodePinsTheAllocationToTheNode() {
    ResourceSlice everywhere = slice("slice-1", "driver-a", "pool-1",
        device("device-1").withBindsToNode(true));
    everywhere.getSpec().setNodeName(null);
    everywhere.getSpec().setNodeSelector(labelSelector("region", "region-1"));
    AllocationOutcome outcome = allocator().allocate(claim("claim-0", request("req-0", "class-a")),
        inputs().deviceClasses(classA()).slices(everywhere).build());
    assertThat(allocated(outcome).claim().getStatus().getAllocation().getNodeSelector())
        .isEqualTo(new NodeSelectorBuilder().withNodeSelectorTerms(new NodeSelectorTermBuilder()
            .withMatchFields(new NodeSelectorRequirementBuilder().withKey("metadata.name")
                .withOperator("In").withValues("node-1").build())
            .build()).build());
  }

  @Test
  void aSliceSelectorWithSeveralTermsCannotBeMerged() {
    NodeSelector twoTerms = labelSelector("region", "region-1");
    twoTerms.getNodeSelectorTerms()
        .add(labelSelector("planet", "earth").getNodeSelectorTerms().get(0));
    ResourceSlice slice = slice("slice-1", "driver-a", "pool-1", device("device-1"));
    slice.getSpec().setNodeName(null);
    slice.getSpec().setNodeSelector(twoTerms);
    AllocationOutcome outcome = allocator().allocate(claim("claim-0", request("req-0", "class-a")),
        inputs().deviceClasses(classA()).slices(slice).build());
    assertThat(outcome).isEqualTo(new AllocationOutcome.Failed(
        "create NodeSelector for claim claim-0: unsupported ResourceSlice.NodeSelector with 2 terms",
        false));
  }
}
